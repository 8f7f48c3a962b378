// Package ingestlist reads and writes the ingest list (取り込み一覧),
// <workspace>/work/store/ingest_status.tsv: one row per source file under the
// crawl roots, with its crawled time and size, its state and its result.
// It follows seed/ingest-list.ja.md, section 取り込み一覧, and
// reference/indexing.md §9 (readStatusFile, writeStatusFile, addStatusRow).
//
// It owns the file's format: reading with validation (later row wins,
// Rejected, LegacyFolders), the full rewrite (WriteFile: a temporary file
// and a rename) and the per-result append (Appender). It does not decide
// what to ingest (package plan) or when to write (package indexer, the only
// writer); it imports only the standard library, golang.org/x/text (the
// encodings a re-saved list may be in) and package workspace.
//
// # Format
//
// UTF-8 with a BOM (EF BB BF), fields separated by TAB, every line ending in
// CR LF, no quoting, so Excel opens the file as it is. First one folder line
// per crawl root (checked or not), then the header, then one data line per
// file. The seed's example, TABs shown as <TAB> (the bytes are
// testdata/seed_sample.tsv):
//
//	クロール対象フォルダ<TAB>C:\data\営業<TAB>営業
//	クロール対象フォルダ<TAB>D:\old\2019年度<TAB>2019年度
//	相対パス<TAB>更新日時<TAB>サイズ<TAB>状態<TAB>TSV数<TAB>取り込み日時<TAB>エラー<TAB>抽出版
//	営業\2024\見積\A社.xlsx<TAB>2025/01/10 12:34:56<TAB>10420<TAB>済<TAB>3<TAB>2026/09/19 10:00:35<TAB><TAB>2
//	営業\空ブック.xlsx<TAB>2025/01/10 12:34:56<TAB>8578<TAB>済<TAB>0<TAB>2026/09/19 10:00:35<TAB><TAB>2
//	営業\秘密.xlsx<TAB>2025/01/10 12:34:56<TAB>15360<TAB>失敗<TAB><TAB>2026/09/19 10:00:40<TAB>読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）<TAB>
//	2019年度\新規.docx<TAB>2026/09/18 09:00:00<TAB>20480<TAB>未取り込み<TAB><TAB><TAB><TAB>
//
// Folder line: クロール対象フォルダ<TAB><path><TAB><index name>.
//
// Data line, eight columns in this order:
//
//	相対パス      <index name>\<path under the crawl root>, `\` on every OS;
//	              compared case-insensitively (workspace.FoldKey)
//	更新日時      the source's modification time at the crawl,
//	              yyyy/MM/dd HH:mm:ss local time (FormatFileTime)
//	サイズ        the source's size in bytes
//	状態          未取り込み (Pending), 済 (Done) or 失敗 (Failed)
//	TSV数         place TSVs written, with 済; 0 for an empty source; else empty
//	取り込み日時  when the file was ingested or failed
//	エラー        the cause of 失敗, or why a 未取り込み file was postponed;
//	              TAB, CR and LF become spaces (CleanError)
//	抽出版        the extract version, with 済; empty counts as 1
//
// Empty cells stay empty on a rewrite (HasTSVCount, Version 0), so reading
// and writing the seed's example gives back the same bytes.
//
// # Writing
//
// After the crawl and at the end of a run the whole list is rewritten
// (WriteFile): written to ingest_status.tsv.tmp, fsynced and renamed into
// place. During a run each result is appended as one line: the rows of a
// group commit in one write (Appender.AppendAllUnsynced, or one at a time
// with AppendUnsynced), fsynced together (Appender.Sync), or a row at once
// (Appender.Append), so a kill loses at most the lines being written, and
// the reader drops a line it cut. If the file
// does not end in a line break (a line cut by a crash), the Appender ends
// that fragment first, so the next row is not glued to it; the fragment is
// then an Ignored line. Duplicates left by appending disappear at the next
// rewrite.
//
// # Reading
//
// Read and ReadFile never fail on content, only on I/O; a missing file is an
// empty list. Line by line:
//
//   - The encoding is told by the first bytes (decode): the UTF-8 BOM is the
//     seed's form (Native); FF FE or FE FF is UTF-16 LE or BE (Excel's
//     "Unicode text"); otherwise UTF-8 if the first 64 KiB are valid UTF-8,
//     else Shift_JIS (cp932, Excel's "Text (Tab delimited)"). Lines may end
//     in CR LF, LF alone (an editor, LibreOffice) or CR alone (Excel for
//     Mac). One CR before the LF is part of the line ending.
//   - Date-times (更新日時, 取り込み日時) are read in the seed's form or as
//     Excel re-formats them (2026/12/1 18:10, 2026/12/01 18:10:05, with -,
//     fractions or T) and kept in the seed's form; a 更新日時 without seconds
//     sets Row.UpdatedMinutes (:00 is written; SameUpdated compares to the
//     minute, so a re-saved list does not make every file look updated).
//   - A list in another form than the seed's was saved again by a person's
//     tool, never cut by our appender, so it is read strictly (issue 15): a
//     field Excel quoted ("…", inner "" doubled) is unquoted, trailing empty
//     cells Excel added or left out are dropped and added back up to the
//     header's width (a row must reach 状態), a last line without its line
//     break is read, and any line that still cannot be read (no header,
//     another column count, a number or date-time that does not read, a
//     character the encoding cannot hold) gives a *FormatError with its line
//     number instead of a shorter list: a list is never silently replaced.
//     The rules below apply to the seed's form.
//   - A last line without its LF was cut while being written and is dropped
//     (DESIGN.md "Formats": a last line without a newline dropped). Our
//     writer ends every line, and so does Excel, so only a crash leaves one;
//     a cut inside the last column (抽出版 "12" cut to "1") still has eight
//     columns, which is why the column count alone cannot tell.
//   - Before the header: folder lines; a legacy two-field folder line
//     クロール対象フォルダ<TAB><path> gives an empty Name. A name that fails
//     workspace.TestStoredIndexName is skipped: if it passes
//     workspace.TestPlainFolderName (an earlier version's name ending in .
//     or a space) it goes to LegacyFolders, else the line counts as
//     Rejected. A folder line of another field count, and any other
//     non-blank line there, counts as Ignored.
//   - The header: the seven names up to エラー, then 抽出版. A legacy header of
//     seven columns without 抽出版 is read too: its rows have seven columns
//     and an empty 抽出版. Columns after 抽出版 (a later version) are skipped.
//   - A data line whose column count differs from the header's (a torn
//     write) is Ignored. One whose 相対パス fails ValidRelPath is Rejected:
//     an index name failing workspace.TestStoredIndexName, or a later
//     segment that is empty, . or .., or has a character that is illegal in
//     file names or a control character (seed: 読み飛ばし、数を Rejected で
//     返す). One whose サイズ, TSV数 or 抽出版 is not a decimal number
//     (digits only; TSV数 and 抽出版 may be empty) is Ignored. Blank lines
//     are skipped and counted nowhere; an unknown 状態 is kept as read.
//   - For rows with the same key the later line wins (List.Rows); List.Lines
//     keeps every accepted line with its position among all data lines, for
//     the journal's recovery.
//   - Every line passed over (Rejected, Ignored, a last line cut by a
//     crash) is named in List.Skips with its line number and a Japanese
//     reason, for the indexer's log (issue 36); a line of any length is
//     passed over without being held (at most maxLineBytes of it).
//   - In a list in another form, a 相対パス that holds `?` and would be
//     valid if they were characters lost them to the encoding (Excel's
//     Shift_JIS save of an emoji, 𠮷, Hangul or é): the row goes to
//     List.Lost, not Rows, for the indexer to find its file (lost.go).
package ingestlist
