// Interface text in English and Chinese. Elements carry data-i18n="key"; t(key) for text
// made in script.

const TEXT = {
  en: {
    title: 'Xiangqi 象棋', newGame: 'New game', play: 'Play', red: 'Red', black: 'Black',
    asRed: 'as red', asBlack: 'as black', bothHuman: 'both sides human', analysisMode: 'analysis',
    level: 'Level', moveTime: 'Time per move (full strength)', fen: 'Start from FEN (empty: the start position)',
    undo: 'Undo', redo: 'Redo', hint: 'Hint', flip: 'Flip', resign: 'Resign', moveNow: 'Move now',
    notation: 'Notation', chinese: 'Chinese', wxf: 'WXF', iccs: 'ICCS', pieces: 'Pieces',
    traditional: 'traditional', simplified: 'simplified', coords: 'ICCS coordinates', language: 'Language',
    lines: 'Lines', thinking: 'Thinking', depth: 'depth', nodes: 'nodes', nps: 'nps', book: 'Opening book',
    savePgn: 'Save PGN', copyFen: 'Copy FEN', loadRecord: 'Load a record', graph: 'Score graph',
    redToMove: 'Red to move', blackToMove: 'Black to move', check: 'check', yourMove: 'your move',
    computerThinks: 'the computer thinks…', gameOver: 'Game over', redWins: 'Red wins', blackWins: 'Black wins', draw: 'Draw',
    checkmate: 'checkmate', stalemate: 'stalemate (困毙: no legal move)', perpetual_check: 'perpetual check (长将)',
    perpetual_chase: 'perpetual chase (长捉)', perpetual_mate_threat: 'perpetual mate threat (长杀)',
    mixed_perpetual: 'perpetual check, chase and threat mixed', repetition: 'repetition, no side broke the rules',
    move_limit: '60-move rule: 60 moves without a capture', no_attacking_material: 'neither side can attack',
    resigned: 'resigned', chasedPiece: 'the chased piece', chasing: 'chasing {piece}', rulesAsian: 'Asian (AXF/WXF) rules', rulesChinese: 'Chinese (CXA 1999) rules', rules: 'rules', illegal: 'Illegal move',
    bookMove: 'book move', hintPlay: 'Play it', fenCopied: 'FEN copied', loaded: 'Loaded', games: 'games',
    mate: 'mate in', mated: 'mated in', score: 'score', gameN: 'Game', analysing: 'analysing',
    graphWorking: 'computing scores…', moveList: 'Moves', start: 'start',
    variations: "The record's moves here",
    egtb: 'Endgame table', pliesNote: 'Plies: half-moves to mate with best play on both sides.',
    showValues: "Show every move's value", winIn: 'win in {n} plies', lossIn: 'loss in {n} plies',
    tbDraw: 'draw', winByRule: 'win by the perpetual-check rule', lossByRule: 'loss by the perpetual-check rule',
    egtbNotReady: 'The endgame tables are being generated…',
    trainer: 'Endgame trainer', trainerAbout: 'Win a won ending as red against perfect defence from the endgame table.',
    ending: 'Ending', trainerNew: 'New position', retry: 'Retry', trainerNone: 'no endings yet',
    trainerStart: 'Red to move and win: mate in {n} plies with best play. The computer defends perfectly.',
    trainerBest: '{m}: the best move (mate in {n} plies).',
    trainerSlower: '{m} still wins, but slower: mate in {k} plies instead of {n} (best: {b}).',
    trainerDraw: '{m} throws the win away: a draw now. {b} would have kept it (mate in {n} plies).',
    trainerLoss: '{m} throws the win away: lost now. {b} would have kept it (mate in {n} plies).',
    trainerMated: 'Mate in {k} plies; the best play from the start mates in {n}.',
    trainerRule: '{m} gives the mate away: it still wins, but only by the perpetual-check rule (black can hold only by checking for ever). {b} would have mated in {n} plies.',
    trainerRuleKept: '{m} keeps the win by the perpetual-check rule.',
    trainerRuleDraw: '{m} throws the win away: a draw now. {b} would have kept the win by the perpetual-check rule.',
    trainerRuleLoss: '{m} throws the win away: lost now. {b} would have kept the win by the perpetual-check rule.',
    trainerRuleWon: 'Won in {k} plies by the perpetual-check rule: black could only check for ever. The best play from the start mates in {n}.',
    // Lines of the record.
    promote: 'Promote line', promoteTip: "Make the shown move's line the main line",
    deleteLine: 'Delete move', deleteLineTip: 'Delete the shown move and every move after it',
    branchKeys: '↑/↓: the other moves at a branch',
    // Arrows.
    arrows: 'Arrows', threatButton: 'Threat', threatTip: "The opponent's best move if it were their turn",
    threat: 'Threat', noThreat: 'No threat to show: the side to move is in check, or the game is over.',
    // Themes and sound.
    look: 'Piece look', lookEngraved: 'engraved', lookSolid: 'solid',
    theme: 'Board', themeWood: 'wood', themePaper: 'paper', themeContrast: 'high contrast', sound: 'Sound',
    // The position editor.
    editor: 'Position editor', sideToMove: 'Side to move', clear: 'Clear', startPosition: 'Start position',
    editorAbout: 'Drag pieces from the palette onto the board, about it or off it; or choose a piece in the palette and tap points to place it. Tapping a piece takes it off.',
    editorPlay: 'Play (as under New game)', editorAnalyse: 'Analyse', editorIllegal: 'Not a position to play', editing: 'Editing a position',
    // The game review.
    review: 'Game review', reviewStrength: 'Strength', reviewStart: 'Review the game', stop: 'Stop',
    reviewAbout: 'The engine judges every move of the line shown against its own best move: inaccuracies (?!), mistakes (?) and blunders (??) are marked, with the better line as a variation, and saved with the game.',
    reviewDepth6: 'depth 6 (quick)', reviewDepth8: 'depth 8', reviewDepth10: 'depth 10',
    reviewTime05: '0.5 s a move', reviewTime1: '1 s a move', reviewTime3: '3 s a move',
    review_best: 'Best move', review_good: 'Good move', review_inaccuracy: 'Inaccuracy', review_mistake: 'Mistake', review_blunder: 'Blunder',
    reviewBest: 'Best', reviewShowBest: 'Show the better line', reviewAvgLoss: 'Average loss', reviewBestN: 'Best', reviewGoodN: 'Good',
  },
  zh: {
    title: '象棋', newGame: '新局', play: '开始', red: '红方', black: '黑方',
    asRed: '执红', asBlack: '执黑', bothHuman: '双方人下', analysisMode: '分析',
    level: '级别', moveTime: '每步用时（最强级别）', fen: '从 FEN 开始（空：初始局面）',
    undo: '悔棋', redo: '还原', hint: '提示', flip: '翻转', resign: '认输', moveNow: '立即走',
    notation: '记谱', chinese: '中文', wxf: 'WXF', iccs: 'ICCS', pieces: '棋子',
    traditional: '繁体', simplified: '简体', coords: 'ICCS 坐标', language: '语言',
    lines: '变例数', thinking: '思考', depth: '深度', nodes: '节点', nps: '每秒节点', book: '开局库',
    savePgn: '保存 PGN', copyFen: '复制 FEN', loadRecord: '打开棋谱', graph: '局势曲线',
    redToMove: '红方走棋', blackToMove: '黑方走棋', check: '将军', yourMove: '轮到你走',
    computerThinks: '电脑思考中…', gameOver: '对局结束', redWins: '红胜', blackWins: '黑胜', draw: '和棋',
    checkmate: '将死', stalemate: '困毙', perpetual_check: '长将判负', perpetual_chase: '长捉判负',
    perpetual_mate_threat: '长杀判负', mixed_perpetual: '一将一捉等循环判负', repetition: '循环不变作和',
    move_limit: '六十回合自然限着', no_attacking_material: '双方无进攻子力', resigned: '认输',
    chasedPiece: '被捉的棋子', chasing: '捉{piece}', rulesAsian: '亚洲规则（亚洲象棋联合会/世界象棋联合会）', rulesChinese: '中国规则（中国象棋协会 1999）', rules: '规则', illegal: '走法不合规则', bookMove: '开局库着法',
    hintPlay: '走这步', fenCopied: '已复制 FEN', loaded: '已打开', games: '局', mate: '杀棋步数',
    mated: '被杀步数', score: '分数', gameN: '第', analysing: '分析中', graphWorking: '计算分数中…',
    moveList: '着法', start: '开局', variations: '棋谱在此的着法',
    egtb: '残局库', pliesNote: '步数：双方最佳走法下到杀棋的半回合数。', showValues: '显示每步着法的结果',
    winIn: '胜（{n} 步杀）', lossIn: '负（{n} 步被杀）', tbDraw: '和',
    winByRule: '胜（对方长将判负）', lossByRule: '负（长将判负）', egtbNotReady: '残局库生成中…',
    trainer: '残局练习', trainerAbout: '执红走完必胜残局，对手按残局库完美防守。', ending: '残局',
    trainerNew: '新题', retry: '重来', trainerNone: '暂无残局',
    trainerStart: '红先胜：最佳走法 {n} 步杀。电脑按残局库防守。',
    trainerBest: '{m}：最佳着法（{n} 步杀）。',
    trainerSlower: '{m} 仍胜，但慢了：{k} 步杀，最快 {n} 步（最佳：{b}）。',
    trainerDraw: '{m} 失去胜机，成和棋。{b} 可 {n} 步杀。',
    trainerLoss: '{m} 失去胜机，反而要输。{b} 可 {n} 步杀。',
    trainerMated: '{k} 步杀；从开始最佳走法为 {n} 步。',
    trainerRule: '{m} 错失杀棋：仍胜，但只能靠对方长将判负取胜。{b} 可 {n} 步杀。',
    trainerRuleKept: '{m} 保持胜势：对方只能长将，长将判负。',
    trainerRuleDraw: '{m} 失去胜机，成和棋。{b} 可保持胜势（对方长将判负）。',
    trainerRuleLoss: '{m} 失去胜机，反而要输。{b} 可保持胜势（对方长将判负）。',
    trainerRuleWon: '{k} 步取胜：对方长将判负。从开始最佳走法为 {n} 步杀。',
    // 棋谱的变着。
    promote: '提升为主线', promoteTip: '把所示着法所在的变着设为主线',
    deleteLine: '删除着法', deleteLineTip: '删除所示着法及其后的全部着法',
    branchKeys: '↑/↓：分支处的其他着法',
    // 箭头。
    arrows: '箭头', threatButton: '威胁', threatTip: '若轮到对方走，对方的最佳着法',
    threat: '威胁', noThreat: '无威胁可示：走棋一方正被将军，或对局已结束。',
    // 主题与声音。
    look: '棋子样式', lookEngraved: '刻字', lookSolid: '实心',
    theme: '棋盘', themeWood: '木纹', themePaper: '纸面', themeContrast: '高对比度', sound: '声音',
    // 摆棋。
    editor: '摆棋', sideToMove: '走棋方', clear: '清空', startPosition: '初始局面',
    editorAbout: '从棋子栏把棋子拖到棋盘上，在棋盘上拖动或拖出棋盘；也可在棋子栏选一个棋子，再点棋盘上的点摆放。点一下棋子即可拿掉。',
    editorPlay: '开始对局（按“新局”的设置）', editorAnalyse: '分析', editorIllegal: '这不是可以下的局面', editing: '正在摆棋',
    // 复盘。
    review: '复盘', reviewStrength: '强度', reviewStart: '开始复盘', stop: '停止',
    reviewAbout: '引擎逐步评判所示变着的每一步，与它自己的最佳着法比较：标出缓着（?!）、错着（?）和败着（??），并把更好的变着作为变例，随棋谱保存。',
    reviewDepth6: '深度 6（快）', reviewDepth8: '深度 8', reviewDepth10: '深度 10',
    reviewTime05: '每步 0.5 秒', reviewTime1: '每步 1 秒', reviewTime3: '每步 3 秒',
    review_best: '最佳着法', review_good: '好棋', review_inaccuracy: '缓着', review_mistake: '错着', review_blunder: '败着',
    reviewBest: '最佳', reviewShowBest: '看更好的变着', reviewAvgLoss: '平均损失', reviewBestN: '最佳', reviewGoodN: '好棋',
  },
};

// Why a move is illegal, by the server's `reason` code; English uses the server's message.
const REASONS_ZH = {
  no_piece: '起点没有棋子', not_side_to_move: '这不是走棋一方的棋子',
  own_piece: '目标点有己方的棋子', general_step: '帅（将）每次沿直线走一步',
  general_palace: '帅（将）不能离开九宫', advisor_step: '仕（士）每次斜走一步',
  advisor_palace: '仕（士）不能离开九宫', elephant_step: '相（象）走田字',
  elephant_river: '相（象）不能过河', elephant_eye: '塞象眼', horse_step: '马走日字',
  horse_leg: '蹩马腿', chariot_line: '车沿直线走', chariot_blocked: '车不能越子',
  cannon_line: '炮沿直线走', cannon_screen: '炮吃子要隔一个子（炮架）',
  cannon_blocked: '炮不吃子时不能越子', pawn_backward: '兵（卒）不能后退',
  pawn_step: '兵（卒）每次走一步', pawn_sideways: '兵（卒）过河后才能横走',
  generals_face: '将帅不能照面', ignores_check: '正被将军，这步没有应将',
  exposes_general: '走后自己的将帅会被将军',
};

// What is wrong with a FEN, by the server's codes (`reason`: the text's fault; `problems`:
// every way the position breaks the rules). English uses the server's message.
const FEN_ZH = {
  empty: 'FEN 是空的', invalid_char: '棋盘部分有无效的字符', rank_too_long: '有一行超过 9 个点',
  rank_too_short: '有一行不足 9 个点', wrong_rank_count: '棋盘不是 10 行', invalid_side: '走棋方不是 w、r 或 b',
  invalid_counter: '回合计数不是数字', too_many_fields: '有多余的字段',
};
const PROBLEMS_ZH = {
  missing_general: '一方没有将（帅）', too_many_generals: '一方有不止一个将（帅）',
  general_outside_palace: '将（帅）在九宫之外', advisor_off_points: '仕（士）不在它能到的点上',
  elephant_off_points: '相（象）不在它能到的点上', pawn_off_points: '兵（卒）在它不可能到的点上',
  too_many_pieces: '某种棋子超过了一方的数目', generals_facing: '将帅照面',
  opponent_in_check: '不走棋的一方正被将军',
};
// The service's other errors by code; the field at fault follows in brackets.
const ERRORS_ZH = {
  bad_json: '请求不是有效的 JSON', bad_body: '请求内容无法读取', body_too_large: '请求太大',
  bad_field: '请求的字段有误', bad_limit: '搜索限制无效', over_limit: '超出本服务器的限制',
  busy: '引擎都在忙，请稍后再试', too_many_streams: '同时进行的分析太多，请稍后再试',
  game_over: '对局已经结束', bad_record: '无法读取这份棋谱', bad_tree: '棋谱的变着有误',
  not_found: '找不到', needs_server: '这项功能需要服务器（残局库）', no_table: '没有这个残局的残局库',
  egtb_error: '残局库出错', bad_ending: '不认识这个残局', no_won_position: '找不到这个残局的必胜局面',
  no_moves: '没有可以复盘的着法', internal: '服务器内部出错', illegal_move: '走法不合规则',
};
// A piece by the API's colour and role.
const PIECES = {
  en: { general: 'general', advisor: 'advisor', elephant: 'elephant', horse: 'horse', chariot: 'chariot', cannon: 'cannon', pawn: 'pawn' },
  zh: {
    red: { general: '帅', advisor: '仕', elephant: '相', horse: '马', chariot: '车', cannon: '炮', pawn: '兵' },
    black: { general: '将', advisor: '士', elephant: '象', horse: '马', chariot: '车', cannon: '炮', pawn: '卒' },
  },
};

let lang = (navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en';

export const getLang = () => lang;

export function setLang(l) {
  lang = TEXT[l] ? l : 'en';
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll('[data-i18n-title]')) e.title = t(e.dataset.i18nTitle);
}

export const t = (key, args = {}) =>
  (TEXT[lang][key] ?? TEXT.en[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => args[k] ?? '');

/** The reason an API error gives for an illegal move, in the page's language. */
export const reasonText = (error) => (lang === 'zh' && REASONS_ZH[error.reason]) || error.message;

/** An API error in the page's language: the server's message in English; in Chinese, said
 * from its codes (the rule an illegal move breaks, what is wrong with a FEN, the error's
 * kind), with the field at fault. An error that is no API error keeps its message. */
export function errorText(error) {
  if (lang !== 'zh' || !error?.code) return error?.message ?? String(error);
  if (error.code === 'illegal_move' && REASONS_ZH[error.reason]) return `${ERRORS_ZH.illegal_move}：${REASONS_ZH[error.reason]}`;
  if (error.code === 'bad_fen') {
    const why = error.problems?.length
      ? error.problems.map((p) => PROBLEMS_ZH[p] || p).join('；')
      : FEN_ZH[error.reason] || error.message;
    return `FEN 有误：${why}`;
  }
  const text = ERRORS_ZH[error.code];
  if (!text) return error.message;
  return error.field ? `${text}（${error.field}）` : text;
}

/** What is wrong with a position's setup, in the page's language (the editor's verdict). */
export function setupText(error) {
  if (lang === 'zh' && error?.code === 'bad_fen') return errorText(error).replace(/^FEN 有误：/, '');
  return errorText(error);
}

/** A piece the API names by colour and role (`{color: 'black', role: 'cannon'}`), with its
 * point: "the black cannon on a5", "黑炮（a5）". */
export function pieceText(piece, square) {
  if (lang === 'zh') {
    const name = `${piece.color === 'red' ? '红' : '黑'}${PIECES.zh[piece.color]?.[piece.role] ?? piece.role}`;
    return square ? `${name}（${square}）` : name;
  }
  const name = `the ${piece.color} ${PIECES.en[piece.role] ?? piece.role}`;
  return square ? `${name} on ${square}` : name;
}
