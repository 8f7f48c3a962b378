package web

// User-facing texts of the web UI, from reference/gui.md. Where the
// reference gives a newer 更新 wording and an [older: …] 取り込み one, the
// older is used (DESIGN.md "Wording"); texts without an older variant are
// the reference's as written. Texts the browser composes on its own (dialog
// buttons, column names) live in assets/*.js beside the same citations.
const (
	// Progress texts (gui.md §3.3).
	msgCrawling     = "更新するファイルを調べています…"
	msgConfirming   = "更新する内容を確認してください"
	msgStarting     = "%d 件のファイルを更新します"
	msgRunning      = "インデックスを更新しています（%d / %d 件）"
	msgRunningFails = "インデックスを更新しています（%d / %d 件・失敗 %d 件）"
	msgFinishing    = "インデックス作成を終えています…"
	msgCurrent      = "更新中のファイル：%s"
	msgLeftMinutes  = "残り約 %d 分"
	msgLeftUnder1   = "残り 1 分未満"
	// Stop (gui.md §3.4).
	msgStopping = "中止しています…（更新中のファイルが終わるまでお待ちください）"

	// End texts (gui.md §3.5; the fatal one in its older wording).
	msgEndDone         = "更新が終わりました（成功 %d 件 / 失敗 %d 件）"
	msgEndDoneLeft     = "更新が終わりました（成功 %d 件 / 失敗 %d 件 / 残り %d 件）"
	msgEndOnlyLeft     = "更新が終わりました（更新せずに残したファイル %d 件）"
	msgEndFailHint     = "失敗したファイルと原因は「取り込みに失敗したファイル」の一覧で確認できます。"
	msgEndNothing      = "更新が必要なファイルはありませんでした"
	msgEndDeclined     = "更新を取りやめました"
	msgEndStopped      = "更新を中止しました（成功 %d 件 / 失敗 %d 件 / 残り %d 件）"
	msgEndStoppedHint  = "次回は続きから再開できます。"
	msgEndFatal        = "インデックスを作成できませんでした"
	msgEndFatalNoCause = "詳しくはログを確認してください。"

	// Interrupted run (gui.md §2.1).
	msgInterrupted = "更新を中断しました（残り %d 件）"

	// Index operations refused during a run (gui.md §2.6); %s is 追加,
	// 編集 or 削除.
	msgBusy = "更新中はインデックスを%sできません。更新が終わるまでお待ちください（［中止］で止められます）。"

	// Index edits (gui.md §2.4, §2.5).
	msgRenamed = "インデックスを変更しました（名前 [%s] → [%s]）"
	msgAdded   = "インデックス [%s] を追加しました（%s）"
	msgRemoved = "インデックス [%s] を削除しました（インデックスは次のインデックス作成で消えます。元のファイルはそのまま残ります）"

	// Failure list (gui.md §2.3, older title).
	msgNoCause = "（原因は記録されていません）"

	// Opening the original (search.md §9, gui.md §4.8).
	msgFileMissing = "%s が見つかりません"
	msgOpenRemote  = "このパソコンで開いているブラウザからだけ、元のファイルを開けます。ダウンロードしてください。"
	msgOpened      = "元のファイルを開きました：%s"
	msgOpenFailed  = "元のファイルを開けませんでした：%s（%v）"
	msgNoIndexRoot = "インデックス [%s] の元のフォルダが登録されていません。"

	// Export (search.md §8).
	msgSearchFirst = "先に検索してください。"
)
