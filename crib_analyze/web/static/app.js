// crib-analyze's page: a client of the local JSON API (/api/...). No build step, no
// library: every number shown comes from the server's answer.
"use strict";

const RANKS = "A23456789TJQK";
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

function $(id) { return document.getElementById(id); }

async function ask(path, body) {
  const init = body === undefined ? { method: "GET" }
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: "the server's answer was not JSON" }; }
  if (!response.ok) { throw new Error(data.error || ("the server answered " + response.status)); }
  return data;
}

function show(prefix, verdict, error) {  // the verdict as a sentence, as the commands print it
  $(prefix + "-status").textContent = verdict ? verdict[0].toUpperCase() + verdict.slice(1) : "";
  $(prefix + "-error").textContent = error || "";
}

function fill(table, rows, columns) {
  table.replaceChildren();
  if (!rows.length) { return; }
  const names = columns.filter((c) => c in rows[0]);
  const head = table.createTHead().insertRow();
  for (const name of names) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const name of names) {
      const value = row[name];
      tr.insertCell().textContent = typeof value === "number" && !Number.isInteger(value)
        ? value.toFixed(3) : (value === null ? "" : String(value));
    }
  }
}

// --- panels -------------------------------------------------------------------------

for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tab")) {
      const on = other === tab;
      other.setAttribute("aria-pressed", String(on));
      $(other.dataset.panel).hidden = !on;
    }
    if (tab.dataset.panel === "board") { drawMaps(); }
  });
}

// --- throw -------------------------------------------------------------------------

const picked = [];

function cardsText() { return $("throw-cards").value.trim(); }

function syncGrid() {
  const typed = cardsText().toUpperCase().split(/[\s,]+/).filter(Boolean);
  for (const button of document.querySelectorAll("#throw-grid button")) {
    button.setAttribute("aria-pressed", String(typed.includes(button.dataset.card)));
  }
}

function makeGrid(holder, onClick) {  // the 52 cards, each a button named as the CLI writes it
  for (const suit of Object.keys(SUITS)) {
    for (const rank of RANKS) {
      const card = rank + suit;
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.card = card;
      button.setAttribute("aria-label", card);
      button.setAttribute("aria-pressed", "false");
      button.className = "card " + (suit === "D" || suit === "H" ? "red" : "black");
      button.textContent = (rank === "T" ? "10" : rank) + SUITS[suit];
      button.addEventListener("click", () => onClick(card));
      holder.appendChild(button);
    }
  }
}

makeGrid($("throw-grid"), (card) => {
  const typed = cardsText().toUpperCase().split(/[\s,]+/).filter(Boolean);
  const at = typed.indexOf(card);
  if (at >= 0) { typed.splice(at, 1); } else { typed.push(card); }
  $("throw-cards").value = typed.join(" ");
  syncGrid();
});
$("throw-cards").addEventListener("input", syncGrid);
$("throw-clear").addEventListener("click", () => { $("throw-cards").value = ""; syncGrid(); });

function radio(name) { return document.querySelector(`input[name="${name}"]:checked`).value; }

function throwRequest() {
  const game = $("throw-game").value || "standard";
  const body = { cards: cardsText(), game: game, why: true, starters: true };
  const seat = $("throw-seat").value.trim();
  if (game === "standard" && !seat) { body.role = radio("role"); } else { body.seat = seat || radio("role"); }
  const mine = $("throw-mine").value, theirs = $("throw-theirs").value;
  if (mine !== "" || theirs !== "") { body.score = `${mine || 0}-${theirs || 0}`; }
  if ($("throw-lowball").checked) { body.lowball = true; }
  if ($("throw-fives").checked) { body.throw_fives = true; }
  if ($("throw-penalty").value !== "none") { body.penalty = $("throw-penalty").value; }
  if ($("throw-jokers").value !== "0") { body.jokers = Number($("throw-jokers").value); }
  return body;
}

function drawChart(rows) {
  const chart = $("throw-chart");
  chart.replaceChildren();
  const first = rows.filter((r) => r.rank === rows[0].rank && r.starters > 0);
  const most = Math.max(...first.map((r) => r.probability));
  const caption = document.createElement("p");
  caption.textContent = `keep ${rows[0].keep} (throw ${rows[0].discard}): points, and the share of starters`;
  chart.appendChild(caption);
  for (const r of first) {
    const line = document.createElement("div");
    line.className = "bar";
    const label = document.createElement("span");
    label.textContent = String(r.points);
    const bar = document.createElement("span");
    bar.className = "fill";
    bar.style.width = `${Math.round(100 * r.probability / most)}%`;
    const share = document.createElement("span");
    share.textContent = `${(100 * r.probability).toFixed(1)}%`;
    line.append(label, bar, share);
    chart.appendChild(line);
  }
}

let throwAsked = 0;  // the answer shown is the latest question's: older ones are dropped

$("throw-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const asked = ++throwAsked;
  show("throw", "Working...", "");
  try {
    const body = throwRequest();
    const data = await ask("/api/discard", body);
    if (asked !== throwAsked) { return; }
    show("throw", data.verdict, "");
    fill($("throw-table"), data.rows, ["rank", "discard", "keep", "throw", "pass", "hand_mean",
      "crib_mean", "peg_net", "net", "total", "loss", "p_win"]);
    fill($("throw-wide"), data.rows, Object.keys(data.rows[0] || {}));
    $("throw-text").textContent = data.text;
    $("throw-result").hidden = false;
    $("throw-chart").replaceChildren();
    if (!body.score) {
      try {
        const spread = await ask("/api/discard", { ...body, distribution: true, why: false, starters: false });
        if (asked === throwAsked) { drawChart(spread.rows); }
      } catch (error) { /* no distribution for this request: the ranking stands alone */ }
    }
  } catch (error) {
    if (asked !== throwAsked) { return; }
    show("throw", "", error.message);
    $("throw-result").hidden = true;
  }
});

// --- play --------------------------------------------------------------------------

makeGrid($("play-grid"), (card) => {  // a card clicked goes to the field chosen
  const field = $(radio("play-target"));
  field.value = field.id === "play-starter" ? card : (field.value.trim() + " " + card).trim();
});
$("play-clear").addEventListener("click", () => {
  for (const id of ["play-cards", "play-starter", "play-discards", "play-played"]) { $(id).value = ""; }
});

$("play-go").addEventListener("click", () => {
  const played = $("play-played");
  played.value = (played.value.trim() + " go").trim();
});

let playAsked = 0;

$("play-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const asked = ++playAsked;
  show("play", "Working...", "");
  try {
    const game = $("play-game").value || "standard";
    const body = { seat: $("play-seat").value.trim() || radio("play-role"), cards: $("play-cards").value.trim(), game: game,
      starter: $("play-starter").value.trim() || null, played: $("play-played").value.trim(), why: true };
    if ($("play-lowball").checked) { body.lowball = true; }
    if ($("play-fives").checked) { body.throw_fives = true; }
    if ($("play-jokers").value !== "0") { body.jokers = Number($("play-jokers").value); }
    const discards = $("play-discards").value.trim();
    if (discards) { body.discards = discards; }
    const data = await ask("/api/play", body);
    if (asked !== playAsked) { return; }
    show("play", data.verdict, "");
    fill($("play-table"), data.rows, ["card", "value", "se", "net", "net_se", "own", "others", "p_win"]);
    $("play-text").textContent = data.text;
    $("play-result").hidden = false;
  } catch (error) {
    if (asked !== playAsked) { return; }
    show("play", "", error.message);
    $("play-result").hidden = true;
  }
});

// --- board -------------------------------------------------------------------------

let board = null;

function colour(p) {  // 0: red, 0.5: pale, 1: green
  const r = p < 0.5 ? 220 : Math.round(220 - 180 * (p - 0.5) * 2);
  const g = p > 0.5 ? 200 : Math.round(40 + 160 * p * 2);
  return `rgb(${r},${g},90)`;
}

async function drawMaps() {
  if (board === null) {
    try { board = await ask("/api/board"); } catch (error) { show("odds", "", error.message); return; }
  }
  for (const role of ["dealer", "pone"]) {
    const canvas = $("map-" + role);
    const ctx = canvas.getContext("2d");
    const cell = canvas.width / board.target;
    board[role].forEach((line, mine) => line.forEach((p, theirs) => {
      ctx.fillStyle = colour(p);
      ctx.fillRect(theirs * cell, mine * cell, Math.ceil(cell), Math.ceil(cell));
    }));
    const say = (mine, theirs) => {
      const who = role === "dealer" ? "you deal" : "they deal";
      $("map-readout").textContent =
        `You ${mine}, they ${theirs}, ${who}: you win ${(100 * board[role][mine][theirs]).toFixed(1)}%`;
    };
    const read = (event) => {
      const box = canvas.getBoundingClientRect();
      const at = event.touches ? event.touches[0] : event;
      const theirs = Math.floor((at.clientX - box.left) / box.width * board.target);
      const mine = Math.floor((at.clientY - box.top) / box.height * board.target);
      if (mine < 0 || theirs < 0 || mine >= board.target || theirs >= board.target) { return; }
      say(mine, theirs);
    };
    canvas.onmousemove = read;
    canvas.ontouchstart = read;
    const cursor = { mine: 60, theirs: 60 };  // the keyboard's square: arrows move it
    canvas.onfocus = () => say(cursor.mine, cursor.theirs);
    canvas.onkeydown = (event) => {
      const step = event.shiftKey ? 10 : 1;
      const moves = { ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] };
      const move = moves[event.key];
      if (!move) { return; }
      event.preventDefault();
      cursor.mine = Math.min(board.target - 1, Math.max(0, cursor.mine + move[0]));
      cursor.theirs = Math.min(board.target - 1, Math.max(0, cursor.theirs + move[1]));
      say(cursor.mine, cursor.theirs);
    };
  }
}

$("odds-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  show("odds", "Working...", "");
  try {
    const game = $("odds-game").value || "standard";
    const body = game === "standard"
      ? { scores: [Number($("odds-mine").value), Number($("odds-theirs").value)],
          dealer: radio("odds-role") === "dealer" }
      : { game: game, scores: $("odds-scores").value.trim().split(/[\s,-]+/).filter(Boolean).map(Number) };
    const data = await ask("/api/odds", body);
    show("odds", data.verdict, "");
    $("odds-text").textContent = data.text;
  } catch (error) {
    show("odds", "", error.message);
    $("odds-text").textContent = "";
  }
});

// --- review ------------------------------------------------------------------------

$("review-file").addEventListener("change", async () => {  // read here, in memory
  const file = $("review-file").files[0];
  if (file) { $("review-record").value = await file.text(); }
});

let reviewJob = null;

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

$("review-cancel").addEventListener("click", async () => {
  if (reviewJob) { await fetch(`/api/jobs/id/${reviewJob}`, { method: "DELETE" }); }
});

$("review-form").addEventListener("submit", async (event) => {
  event.preventDefault();  // a long game takes a while: a job, with progress and Cancel
  if (reviewJob) { return; }  // one review at a time: Cancel stops the one running
  const submit = $("review-form").querySelector("button[type=submit]");
  submit.disabled = true;
  show("review", "Working...", "");
  $("review-result").hidden = true;
  try {
    const started = await ask("/api/jobs/review", { record: $("review-record").value });
    reviewJob = started.job;
    $("review-cancel").hidden = false;
    $("review-progress-line").hidden = false;
    let job;
    for (;;) {
      job = await ask(`/api/jobs/id/${reviewJob}`);
      $("review-progress").max = Math.max(job.total, 1);
      $("review-progress").value = job.done;
      $("review-count").textContent = job.total ? `${job.done} of ${job.total}` : "";
      if (job.state !== "running") { break; }
      await sleep(250);
    }
    if (job.state === "done") {
      const data = job.answer;
      show("review", data.verdict, "");
      fill($("review-table"), data.rows, ["deal", "kind", "situation", "chosen", "best", "loss", "loss_win"]);
      $("review-text").textContent = data.text;
      $("review-result").hidden = false;
    } else if (job.state === "cancelled") {
      show("review", `Cancelled after ${job.done} of ${job.total} deals.`, "");
    } else {
      show("review", "", job.error);
    }
  } catch (error) {
    show("review", "", error.message);
  } finally {
    reviewJob = null;
    submit.disabled = false;
    $("review-cancel").hidden = true;
  }
});

// --- trainers ----------------------------------------------------------------------

function seed() { return Math.floor(Math.random() * 2 ** 31); }

function cardButtons(holder, cards, onClick) {
  holder.replaceChildren();
  for (const card of cards) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card " + ("DH".includes(card[1]) ? "red" : "black");
    button.setAttribute("aria-label", card);
    button.setAttribute("aria-pressed", "false");
    button.textContent = (card[0] === "T" ? "10" : card[0]) + SUITS[card[1]];
    button.addEventListener("click", () => onClick(card, button));
    holder.appendChild(button);
  }
}

function tallyText(t) {
  return `Tally: ${t.best} of ${t.hands} best, ${t.lost.toFixed(3)} points lost`;
}

const throwQuiz = { seed: null, picked: [], tally: { best: 0, hands: 0, lost: 0 } };

$("quiz-deal").addEventListener("click", async () => {
  show("quiz", "", "");
  throwQuiz.seed = seed();
  throwQuiz.picked = [];
  try {
    const data = await ask("/api/quiz/throw", { seed: throwQuiz.seed });
    $("quiz-hand-role").textContent = `You are the ${data.role}: throw two.`;
    const dealt = throwQuiz.seed;  // this hand's: a late answer for an older one is dropped
    cardButtons($("quiz-hand"), data.hand, async (card, button) => {
      if (throwQuiz.picked.includes(card) || throwQuiz.picked.length >= 2) { return; }
      throwQuiz.picked.push(card);
      button.setAttribute("aria-pressed", "true");
      if (throwQuiz.picked.length < 2) { return; }
      try {
        const graded = await ask("/api/quiz/throw", { seed: dealt, throw: throwQuiz.picked });
        if (dealt !== throwQuiz.seed) { return; }
        const t = throwQuiz.tally;
        t.hands += 1;
        t.best += graded.grade.best ? 1 : 0;
        t.lost += graded.grade.loss;
        const best = graded.grade.best ? "" : ` The best: ${graded.grade.best_throw}.`;
        show("quiz", graded.verdict + "." + best, "");
        $("quiz-tally").textContent = tallyText(t);
      } catch (error) { show("quiz", "", error.message); }
    });
  } catch (error) { show("quiz", "", error.message); }
});

const playQuiz = { seed: null, done: false, tally: { best: 0, hands: 0, lost: 0 } };

$("pquiz-deal").addEventListener("click", async () => {
  show("pquiz", "", "");
  $("pquiz-text").textContent = "";
  playQuiz.seed = seed();
  playQuiz.done = false;
  try {
    const p = await ask("/api/quiz/play", { seed: playQuiz.seed });
    $("pquiz-position").textContent = `You are the ${p.role}; starter ${p.starter}; ` +
      `you threw ${p.discards.join(" ")}; the play so far: ${p.played || "nothing yet"}; ` +
      `count ${p.count}. Lay one of:`;
    const dealt = playQuiz.seed;
    cardButtons($("pquiz-hand"), p.legal, async (card, button) => {
      if (playQuiz.done) { return; }
      playQuiz.done = true;
      button.setAttribute("aria-pressed", "true");
      try {
        const graded = await ask("/api/quiz/play", { seed: dealt, card: card });
        if (dealt !== playQuiz.seed) { return; }
        const t = playQuiz.tally;
        t.hands += 1;
        t.best += graded.grade.is_best ? 1 : 0;
        t.lost += graded.grade.loss;
        show("pquiz", graded.verdict + ".", "");
        $("pquiz-tally").textContent = tallyText(t);
        $("pquiz-text").textContent = graded.text;
      } catch (error) { show("pquiz", "", error.message); }
    });
  } catch (error) { show("pquiz", "", error.message); }
});

// --- games -------------------------------------------------------------------------

ask("/api/games").then((data) => {
  for (const row of data.rows) {
    const option = document.createElement("option");
    option.value = row.game;
    option.textContent = `${row.game}: ${row.summary}`;
    $("throw-game").appendChild(option);
    $("play-game").appendChild(option.cloneNode(true));
    $("odds-game").appendChild(option.cloneNode(true));
  }
}).catch((error) => show("throw", "", error.message));
