// Entry point of the browser client: picks the view from the URL.
//   /                 lobby (create a table, join, watch, replay)
//   /#leaderboard     leaderboard
//   /table/{id}       a live table (the invite link)
//   /replay/{id}[#n]  the replay of a finished game (at move n)
import { getName, setName } from "./api.js";
import { lobbyView, leaderboardView } from "./lobby.js";
import { tableView } from "./table.js";
import { replayView } from "./replay.js";

const main = document.getElementById("main");
const nameField = document.getElementById("player-name");
nameField.value = getName();
nameField.addEventListener("change", () => setName(nameField.value.trim()));

let stopLobby = null;

async function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/table\/([^/]+)\/?$/))) {
    await tableView(main, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/replay\/([^/]+)\/?$/))) {
    await replayView(main, decodeURIComponent(m[1]));
  } else {
    if (stopLobby) { stopLobby(); stopLobby = null; }
    if (location.hash === "#leaderboard") await leaderboardView(main);
    else stopLobby = await lobbyView(main);
  }
}

window.addEventListener("hashchange", () => { if (location.pathname === "/") route(); });
route();
