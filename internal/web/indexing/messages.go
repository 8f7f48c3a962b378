package indexing

// Texts of the run's banner and end (reference/gui.md §3.3–§3.5), in the
// vocabulary of package web's messages.go: a run is インデックス作成, a
// file is 取り込む.
const (
	// Progress texts (gui.md §3.3).
	msgCrawling     = "取り込むファイルを調べています…"
	msgConfirming   = "取り込む内容を確認してください"
	msgStarting     = "%d 件のファイルを取り込みます"
	msgRunning      = "取り込んでいます（%d / %d 件）"
	msgRunningFails = "取り込んでいます（%d / %d 件・失敗 %d 件）"
	msgFinishing    = "インデックス作成を終えています…"
	msgCurrent      = "取り込み中のファイル：%s"
	msgOCRPages     = "OCR %d/%d ページ"
	msgLeftMinutes  = "残り約 %d 分"
	msgLeftUnder1   = "残り 1 分未満"
	// Stop (gui.md §3.4).
	msgStopping = "中止しています…（取り込み中のファイルが終わるまでお待ちください）"

	// End texts (gui.md §3.5; the fatal one in its older wording).
	msgEndDone         = "インデックス作成が完了しました（成功 %d 件 / 失敗 %d 件）"
	msgEndDoneLeft     = "インデックス作成が完了しました（成功 %d 件 / 失敗 %d 件 / 残り %d 件）"
	msgEndOnlyLeft     = "インデックス作成が完了しました（取り込まずに残したファイル %d 件）"
	msgEndFailHint     = "失敗したファイルと原因は「取り込みに失敗したファイル」の一覧で確認できます。"
	msgEndNothing      = "取り込みが必要なファイルはありませんでした"
	msgEndDeclined     = "インデックス作成を取りやめました"
	msgEndStopped      = "インデックス作成を中止しました（成功 %d 件 / 失敗 %d 件 / 残り %d 件）"
	msgEndStoppedHint  = "次回は続きから再開できます。"
	msgEndFatal        = "インデックスを作成できませんでした"
	msgEndFatalNoCause = "詳しくはログを確認してください。"
)
