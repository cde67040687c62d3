// The start page: create a table from a preset and seat choices, or continue a saved record.

const $ = (id) => document.getElementById(id);

const options = await (await fetch("/api/options")).json();

function fillPresets() {
  for (const p of options.presets) {
    const opt = new Option(p.name, p.name);
    $("preset").append(opt);
  }
  $("preset").value = "classic";
}

function fillPlayers() {
  const preset = options.presets.find((p) => p.name === $("preset").value);
  const current = Number($("players").value) || 4;
  $("players").replaceChildren();
  for (let n = preset.min_players; n <= preset.max_players; n++) $("players").append(new Option(`${n} players`, n));
  $("players").value = Math.min(Math.max(current, preset.min_players), preset.max_players);
  $("preset-summary").textContent = preset.summary;
  fillSeats();
}

function fillSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let seat = 1; seat < n; seat++) {
    const select = document.createElement("select");
    select.name = `seat-${seat}`;
    select.id = `seat-${seat}`;
    select.append(new Option("a friend (invite link)", "human"));
    for (const kind of options.bots) select.append(new Option(`bot: ${kind}`, kind));
    select.value = kept[seat - 1] || (options.bots.includes("basic") ? "basic" : options.bots[0]);
    const label = document.createElement("label");
    label.append(`Seat ${seat + 1} `, select);
    box.append(label);
  }
}

function fillRuleOptions() {
  const box = $("rule-options");
  for (const [key, values] of Object.entries(options.rules)) {
    const select = document.createElement("select");
    select.id = `rule-${key}`;
    select.append(new Option("as the preset says", ""));
    for (const v of values) select.append(new Option(v, v));
    const label = document.createElement("label");
    label.append(`${key.replace("_", " ")} `, select);
    box.append(label);
  }
}

// The bots' pace is the table's: a select after the seats, of the server's paces.
const PACE_WORDS = {
  slow: "Slow: bots take their time, finished tricks stay up longer",
  normal: "Normal",
  fast: "Fast: bots answer at once",
};

function addPace() {
  const select = document.createElement("select");
  select.id = "pace";
  select.name = "pace";
  for (const pace of options.paces) select.append(new Option(PACE_WORDS[pace] || pace, pace));
  select.value = options.pace;
  const label = document.createElement("label");
  label.append("Pace ", select);
  $("seats").after(label);
}

function seats() {
  const n = Number($("players").value);
  const out = ["human"];
  for (let seat = 1; seat < n; seat++) out.push($(`seat-${seat}`).value);
  return out;
}

async function create(body, errorBox) {
  errorBox.textContent = "";
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    errorBox.textContent = answer.error;
    // The engine names the rule option at fault: take the person to that field.
    const field = answer.option && ($(`rule-${answer.option}`) || $(answer.option));
    if (field) field.focus();
    return;
  }
  location.assign(answer.url);
}

$("create").addEventListener("submit", (event) => {
  event.preventDefault();
  // Rule options go as the game record spells them; a blank field is sent as "" and the server
  // reads it as "not given" (the one place blanks are translated).
  const body = { name: $("name").value, seats: seats(), creator: 0, preset: $("preset").value, pace: $("pace").value };
  for (const key of Object.keys(options.rules)) body[key] = $(`rule-${key}`).value;
  // Hand sizes typed in ("1,2,1") are the schedule; else the schedule chosen above (or the preset's).
  const sizes = $("schedule").value.trim();
  if (sizes) body.schedule = sizes.split(/[ ,]+/).filter(Boolean).map(Number);
  create(body, $("create-error"));
});

$("import").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("record-file").files[0];
  const record = file ? await file.text() : $("record-text").value;
  if (!record.trim()) {
    $("import-error").textContent = "Choose a record file or paste one.";
    return;
  }
  let players = 0;
  try {
    players = JSON.parse(record).players.length;
  } catch {
    $("import-error").textContent = "That is not a game record (not JSON with players).";
    return;
  }
  const chosen = seats();
  const kinds = Array.from({ length: players }, (_, i) => chosen[i] || options.bots[0]);
  create({ name: $("name").value, seats: kinds, creator: 0, record, pace: $("pace").value }, $("import-error"));
});

$("preset").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
fillPresets();
fillPlayers();
addPace();
fillRuleOptions();
