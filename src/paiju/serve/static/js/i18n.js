// English and Chinese. The page is written in English; in Chinese every text that is one of the phrases below
// (a button, a heading, a tag, a label) is shown translated, and the game's terms are translated inside longer
// texts (a term is a string or a global RegExp). The choice is kept in localStorage and switched with the button
// this module adds to the page.

const PHRASES = {
  // Lobby and pages
  "paiju arena": "牌局 竞技场", "New table": "新牌桌", "Game": "游戏", "Seats": "座位", "Rules": "规则",
  "Seed": "种子", "Variant": "玩法", "classic": "经典", "癞子 / wild card": "癞子",
  "Create the table and sit down": "开桌入座", "Tables": "牌桌", "Finished games": "已结束的牌局",
  "Leaderboard": "排行榜", "← Lobby": "← 大厅", "Replay": "回放", "You": "你",
  "No table in progress.": "没有进行中的牌桌。", "No finished game yet.": "还没有结束的牌局。",
  // The table
  "Hint": "提示", "Clear": "清除", "Pass": "不出", "Play": "出牌", "Ask": "询问", "Ask an AI": "问问 AI",
  "Moves": "出牌记录", "Table": "牌桌", "Cards not seen": "未见的牌", "Show the card counter": "显示记牌器",
  "Hide the card counter": "隐藏记牌器", "connected": "已连接", "thinking…": "思考中…", "Game over": "游戏结束",
  "Your turn: select cards.": "轮到你：选牌。",
  "These cards can be played in several ways: choose one.": "这些牌有几种出法：选一种。", "You lead: play any combination.": "你先出：任意牌型。",
  "You lead: play any card.": "你先出：任意一张。", "The game is over.": "游戏结束。",
  // Results
  "You win": "你赢了", "You lose": "你输了", "A draw": "平局", "Seat": "座位", "Payoff": "得分",
  "Play again with the same seats": "原班人马再来一局", "Leave the table": "离开牌桌",
  "Watch the replay": "观看回放", "Back to the lobby": "回到大厅", "See the table": "查看牌桌",
  "The hands as dealt": "发牌时的手牌",
  // Replay
  "« Start": "« 开头", "◀ Back": "◀ 后退", "Forward ▶": "前进 ▶", "End »": "结尾 »", "▶ Play": "▶ 播放",
  "❚❚ Pause": "❚❚ 暂停", "Speed": "速度", "Seen from": "视角",
  // Watching a table of bots
  "Watch": "观战", "Live": "直播中", "Finished": "已结束", "Stopped": "已中止", "Hidden": "不公开",
  "Not found": "未找到", "Bot delay (s)": "机器人延时（秒）", "Create the table and watch": "开桌观战",
  // DouDizhu
  "Landlord": "地主", "Peasant": "农民", "Landlord cards": "底牌", "Bids": "叫分", "Multiplier": "倍数",
  "No bid": "不叫", "Bid 1": "1 分", "Bid 2": "2 分", "Bid 3": "3 分",
  // GuanDan
  "Partner": "队友", "Opponent": "对手", "Level": "级牌", "Round": "局", "Our team": "我方", "Other team": "对方",
  "Finish order": "出完顺序", "Rank order": "牌序",
  "Tribute and return": "进贡与还贡", "Tribute": "进贡", "Return": "还贡", "Anti-tribute": "抗贡",
  "Last round": "上一局", "Last round:": "上一局：", "1st": "头游", "2nd": "二游", "3rd": "三游", "4th": "末游",
  "sealed": "暗牌", "sealed: only you see it": "暗牌：只有你看得到", "choosing…": "选择中…", "waiting": "等待",
  "your turn: select the card below, then Play": "轮到你：在下方选牌，再点出牌", "and": "和",
  "holds both big jokers: no tribute is paid.": "有两张大王：抗贡，不进贡。",
  "hold both big jokers: no tribute is paid.": "合有两张大王：抗贡，不进贡。", "The 1st leads.": "头游先出。",
  "The 4th pays tribute to the 1st.": "末游向头游进贡。",
  "Double down: the 3rd and the 4th both pay; the higher card goes to the 1st.":
    "双下：三游和末游都进贡，大的一张给头游。",
  "Then each receiver returns a card of 10 or lower.": "然后收贡者各还一张 10 或以下的牌。",
  // Gongzhu
  "Trick": "墩", "Team scores": "队伍得分", "Led": "首出",
};

const RANK = String.raw`(?:10|[2-9JQKA])`;
/** "8 as 5", a wild card standing for a rank; " as " elsewhere ("plays as landlord") is plain English. */
const STANDS_FOR = new RegExp(String.raw`\b(${RANK}) as (?=${RANK}\b)`, "g");

const TERMS = [
  ["soft bomb of", "软炸"], ["wild bomb of", "纯癞子炸"], ["bomb of", "炸弹"], ["soft bomb", "软炸"],
  ["wild bomb", "纯癞子炸"], ["trio of", "三张"], ["pairs of", "对"], ["pair of", "对"], ["four of", "四张"],
  ["solo chain", "顺子"], ["solo", "单张"], ["pair chain", "连对"], ["plane", "飞机"], [STANDS_FOR, "$1 当 "], ["Wild:", "癞子："],
  ["one wild rank", "单癞子"], ["two wild ranks", "双癞子"], ["wild ranks", "癞子数"], ["癞子 / wild card", "癞子"],
  ["small joker", "小王"], ["big joker", "大王"], ["Landlord", "地主"], ["landlord", "地主"], ["peasants", "农民"],
  ["Peasant", "农民"], ["Bomb", "炸弹"], ["bomb", "炸弹"], ["rocket", "王炸"],
  ["Anti-tribute", "抗贡"], ["a sealed card", "一张暗牌"], ["Tribute", "进贡"],
  ["tribute", "进贡"], ["Return", "还贡"], ["wild", "逢人配"], ["Seat", "座位"], ["pts", "分"],
  ["Pig", "猪"], ["Sheep", "羊"], ["Doubler", "变压器"], ["Hearts", "红桃"], ["not taken yet", "尚未被收"],
  ["taken by", "收于"],
];

const KEY = "paiju.language";
const original = new WeakMap();
let language = localStorage.getItem(KEY) === "zh" ? "zh" : "en";

/** The Chinese of an English text: a listed phrase whole, else the text with the game's terms translated. */
export function toChinese(text) {
  const trimmed = text.trim();
  if (trimmed in PHRASES) return text.replace(trimmed, PHRASES[trimmed]);
  return TERMS.reduce((result, [english, chinese]) => result.replaceAll(english, chinese), text);
}

function translateNode(node) {
  if (node.nodeType === Node.TEXT_NODE) {
    if (!node.nodeValue.trim()) return;
    if (!original.has(node) || (node.nodeValue !== toChinese(original.get(node))
        && node.nodeValue !== original.get(node))) {
      original.set(node, node.nodeValue);  // a new text, or one the page changed since
    }
    const wanted = language === "zh" ? toChinese(original.get(node)) : original.get(node);
    if (node.nodeValue !== wanted) node.nodeValue = wanted;
    return;
  }
  if (node.nodeType === Node.ELEMENT_NODE && node.tagName !== "SCRIPT" && node.tagName !== "STYLE") {
    node.childNodes.forEach(translateNode);
  }
}

/** Keep `root` (and everything added to it later) in the chosen language; add the switch to the page. */
export function startTranslation(root) {
  const observer = new MutationObserver((mutations) => {
    observer.disconnect();
    for (const mutation of mutations) {
      if (mutation.type === "characterData") translateNode(mutation.target);
      mutation.addedNodes.forEach(translateNode);
    }
    observe();
  });
  const observe = () => observer.observe(root, {childList: true, subtree: true, characterData: true});
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "language-switch";
  toggle.dataset.testid = "language";
  const label = () => { toggle.textContent = language === "zh" ? "English" : "中文"; };
  toggle.onclick = () => {
    language = language === "zh" ? "en" : "zh";
    localStorage.setItem(KEY, language);
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
    label();
    observer.disconnect();
    translateNode(root);
    observe();
  };
  label();
  document.body.append(toggle);
  document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  translateNode(root);
  observe();
}
