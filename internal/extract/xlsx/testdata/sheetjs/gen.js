// Writes short.xlsb with SheetJS (npm xlsx), which stores every cell after
// the first of a row as a short cell record (BrtShort*, no column field).
// Run: npm install xlsx (in a folder outside the repo), then
//   NODE_PATH=<that folder>/node_modules node gen.js
const XLSX = require("xlsx");
const rows = [
  ["品名", "数量", "単価", "確認", "備考"],
  ["りんご", 12, 1.5, true, "赤い"],
  ["みかん", 300, 0.25, false, null, "空欄の次"],
  [null, "二列目から", 7, "三", 4.75],
];
const ws = XLSX.utils.aoa_to_sheet(rows);
ws["F4"] = { t: "e", v: 0x07 }; // #DIV/0!
ws["!ref"] = "A1:F4";
const wb = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(wb, ws, "短い");
XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["a", "b", "c"], [1, 2, 3]]), "Sheet2");
XLSX.writeFile(wb, "short.xlsb", { bookSST: true });
XLSX.writeFile(wb, "short-inline.xlsb", { bookSST: false });
console.log("XLSX", XLSX.version);
