"""The page `gambler-play` serves: one self-contained HTML document (no file or network fetched
but its own server's `/state` and `/action`), polling the state four times a second."""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gambler-play</title>
<style>
  body { font-family: system-ui, sans-serif; background: #0b3d2e; color: #f4f4f4; margin: 0; }
  main { max-width: 760px; margin: 0 auto; padding: 16px; }
  h1 { font-size: 20px; margin: 4px 0 12px; }
  .row { display: flex; gap: 16px; align-items: center; margin: 10px 0; flex-wrap: wrap; }
  .seat { background: #134e3a; border-radius: 8px; padding: 10px 14px; min-width: 200px; }
  .cards { font-size: 28px; letter-spacing: 4px; min-height: 36px; }
  .card { background: #fff; color: #111; border-radius: 4px; padding: 0 4px; margin-right: 4px; }
  .card.red { color: #c0392b; }
  .card.back { background: #7f8c8d; color: #7f8c8d; }
  #board .card { font-size: 30px; }
  button { font-size: 16px; padding: 8px 14px; border-radius: 6px; border: 0; cursor: pointer; }
  button:disabled { opacity: 0.4; cursor: default; }
  #raise-to { width: 100px; font-size: 16px; padding: 6px; }
  #message { color: #ffd166; min-height: 22px; }
  #history { font-size: 14px; color: #cfe; white-space: pre-line; }
  .muted { color: #9bb; font-size: 14px; }
</style>
</head>
<body>
<main>
  <h1>gambler-play: you against <span id="opponent"></span></h1>
  <div class="muted" id="status">connecting...</div>
  <div class="row">
    <div class="seat"><div><span id="opponent-name"></span> <span id="opponent-button"></span></div>
      <div class="cards" id="opponent-cards"></div>
      <div>stack <span id="opponent-stack"></span>, in the pot <span id="opponent-bet"></span></div></div>
  </div>
  <div class="row"><div>board</div><div class="cards" id="board"></div>
    <div>pot <b id="pot"></b></div></div>
  <div class="row">
    <div class="seat"><div>you <span id="your-button"></span></div>
      <div class="cards" id="your-cards"></div>
      <div>stack <span id="your-stack"></span>, in the pot <span id="your-bet"></span></div></div>
  </div>
  <div class="row">
    <button id="fold">Fold</button>
    <button id="call">Check</button>
    <input id="raise-to" type="number" step="1" aria-label="raise to">
    <button id="raise">Raise to</button>
    <button class="preset" data-share="0.5">&frac12; pot</button>
    <button class="preset" data-share="1">pot</button>
    <button class="preset" data-share="all">all-in</button>
  </div>
  <div id="message" role="status"></div>
  <div class="row"><div>hand <b id="hand"></b>, <span id="round"></span></div>
    <div>your total: <b id="total"></b></div></div>
  <div id="history"></div>
  <h2 style="font-size:16px">last hand</h2>
  <div id="last-hand" class="muted">none yet</div>
  <div class="muted" id="log"></div>
</main>
<script>
const SUITS = {c: "\\u2663", d: "\\u2666", h: "\\u2665", s: "\\u2660"};
let view = null;
function cardHtml(text) {
  const red = text[1] === "d" || text[1] === "h";
  return '<span class="card' + (red ? ' red' : '') + '" data-card="' + text + '">' +
    text[0] + SUITS[text[1]] + '</span>';
}
function cardsHtml(cards, hidden) {
  if (cards.length) return cards.map(cardHtml).join("");
  return hidden ? '<span class="card back">??</span><span class="card back">??</span>' : "";
}
function chips(n) { return Math.round(n).toLocaleString("en-US"); }
function signed(n) { return (n > 0 ? "+" : "") + chips(n); }
function set(id, html) { document.getElementById(id).innerHTML = html; }
function render(v) {
  view = v;
  set("opponent", v.opponent); set("opponent-name", v.opponent);
  const over = v.status === "over" || v.status === "failed";
  let status = {waiting: "waiting for the bot to join...", playing: "", over: "match over",
                failed: "the match stopped"}[v.status];
  if (v.status === "playing") status = v.your_turn ? "your turn" : "waiting for " + v.opponent;
  set("status", status);
  set("total", signed(v.total) + " chips (" + (v.total_bb >= 0 ? "+" : "") +
      v.total_bb.toFixed(1) + " big blinds) over " + v.hands_played + " of " + v.hands + " hands");
  if (v.hand !== undefined) {
    set("hand", v.hand + 1); set("round", v.finished ? "over" : v.round);
    set("your-cards", cardsHtml(v.your_cards, false));
    set("opponent-cards", cardsHtml(v.opponent_cards, true));
    set("board", cardsHtml(v.board, false));
    set("pot", chips(v.pot));
    set("your-stack", chips(v.your_stack)); set("opponent-stack", chips(v.opponent_stack));
    set("your-bet", chips(v.your_bet)); set("opponent-bet", chips(v.opponent_bet));
    set("your-button", v.button ? "(button)" : ""); set("opponent-button", v.button ? "" : "(button)");
    set("history", v.history.join("\\n"));
  }
  const legal = v.your_turn && !over ? v.legal : null;
  document.body.dataset.turn = legal ? v.hand + ":" + v.betting : "";  // the decision shown
  document.getElementById("fold").disabled = !(legal && legal.fold);
  document.getElementById("call").disabled = !legal;
  document.getElementById("call").textContent = legal && legal.call > 0 ?
    "Call " + chips(legal.call) : "Check";
  const canRaise = !!(legal && legal.raise_min !== null);
  for (const id of ["raise", "raise-to"]) document.getElementById(id).disabled = !canRaise;
  for (const b of document.querySelectorAll(".preset")) b.disabled = !canRaise;
  const input = document.getElementById("raise-to");
  if (canRaise) {
    input.min = legal.raise_min; input.max = legal.raise_max;
    if (input.dataset.hand !== String(v.hand) + v.betting) {
      input.value = legal.raise_min; input.dataset.hand = String(v.hand) + v.betting;
    }
  }
  set("message", v.message || "");
  if (v.last_hand) {
    const h = v.last_hand;
    set("last-hand", "hand " + (h.hand + 1) + ": you " + signed(h.chips) + " chips; you held " +
        cardsHtml(h.your_cards, false) + " " + v.opponent + " " +
        cardsHtml(h.opponent_cards, true) + " board " + cardsHtml(h.board, false) +
        ' <span class="muted">(' + h.betting + ')</span>');
  }
  set("log", v.log ? "the match log (ACPC format): " + v.log : "");
}
async function refresh() {
  try {
    const response = await fetch("/state", {cache: "no-store"});
    render(await response.json());
  } catch (error) {
    set("status", "the server has stopped");
  }
}
async function act(action, to) {
  const response = await fetch("/action", {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: JSON.stringify({action: action, to: to})});
  const answer = await response.json();
  if (answer.error) set("message", answer.error);
  await refresh();
}
document.getElementById("fold").onclick = () => act("fold");
document.getElementById("call").onclick = () => act("call");
document.getElementById("raise").onclick = () => {
  const text = document.getElementById("raise-to").value.trim();
  act("raise", /^[0-9]+$/.test(text) ? Number(text) : text);
};
for (const b of document.querySelectorAll(".preset")) {
  b.onclick = () => {
    if (!view || !view.legal) return;
    const legal = view.legal;
    let to = legal.raise_max;
    if (b.dataset.share !== "all") {
      // a pot-fraction raise: call first, then raise by the share of the pot after the call
      const after = view.pot + legal.call;
      to = view.your_bet + legal.call + Math.round(Number(b.dataset.share) * after);
    }
    to = Math.max(legal.raise_min, Math.min(legal.raise_max, to));
    document.getElementById("raise-to").value = to;
  };
}
refresh();
setInterval(refresh, 250);
</script>
</body>
</html>
"""
