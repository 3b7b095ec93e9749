// Entry point of the browser client: picks the view from the URL.
//   /                 lobby (create a table, join, watch, replay)
//   /#leaderboard     leaderboard
//   /table/{id}       a live table (the invite link)
//   /replay/{id}[#n]  the replay of a finished game (at move n)
// The page speaks the language of i18n.js (the browser's, or the one picked in the header);
// switching it reloads the page, which keeps the seat, the name and the guided game's step.
import { getName, setName } from "./api.js";
import { initI18n, languageSelect, onLanguageChange, translateDom } from "./i18n.js";
import { lobbyView, leaderboardView } from "./lobby.js";
import { tableView } from "./table.js";
import { replayView } from "./replay.js";
import { accountBox } from "./account.js";

await initI18n();
translateDom();
document.getElementById("language-slot").replaceChildren(languageSelect("language"));
onLanguageChange(() => location.reload());

const main = document.getElementById("main");
const nameField = document.getElementById("player-name");
// The page may have been typed into while the language file loaded: keep what was typed.
if (!nameField.value.trim()) nameField.value = getName();
nameField.addEventListener("change", () => setName(nameField.value.trim()));
accountBox(document.getElementById("account"));

// The header's Menu button: shown only where the header is folded to one line (a live table
// on a phone, style.css); it opens and closes the links, the name, the account and the
// language below it. Escape closes it and gives the focus back to the button.
const header = document.querySelector("header.site");
const menuButton = header.querySelector("[data-testid=menu]");
function showMenu(open) {
  header.classList.toggle("menu-open", open);
  menuButton.setAttribute("aria-expanded", open ? "true" : "false");
}
menuButton.addEventListener("click", () => showMenu(!header.classList.contains("menu-open")));
header.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !header.classList.contains("menu-open")) return;
  showMenu(false);
  menuButton.focus();
});

let stopLobby = null;
let shown = null; // "lobby" | "leaderboard" | "table" | "replay"

async function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/table\/([^/]+)\/?$/))) {
    show("table");
    await tableView(main, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/replay\/([^/]+)\/?$/))) {
    show("replay");
    await replayView(main, decodeURIComponent(m[1]));
  } else {
    if (stopLobby) { stopLobby(); stopLobby = null; }
    show(location.hash === "#leaderboard" ? "leaderboard" : "lobby");
    if (shown === "leaderboard") await leaderboardView(main);
    else stopLobby = await lobbyView(main);
  }
}

/** Note the view shown; `<body data-view>` lets the style sheet lay out each view. */
function show(view) {
  shown = view;
  document.body.dataset.view = view;
}

// Only a change between the lobby and the leaderboard redraws the page: other address
// fragments (the "Skip to the game" link's #main) keep what is on it, e.g. a half-filled form.
window.addEventListener("hashchange", () => {
  if (location.pathname !== "/") return;
  if ((location.hash === "#leaderboard") !== (shown === "leaderboard")) route();
});
route();
