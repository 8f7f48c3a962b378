package indexer

import "fmt"

// Reasons of Summary.OnlySkipped (reference/indexing.md §2, selectOnlyNames).
const (
	reasonNotInSettings = "設定にありません"
	reasonUnchecked     = "取り込み対象から外れています"
)

// Fatal messages (reference/indexing.md §17.1).
const (
	MsgNoRoots      = "インデックスがありません。画面でフォルダを追加してください。"
	MsgNoEnabled    = "チェックの付いたインデックスがありません。画面で取り込むインデックスにチェックを付けてください。"
	msgRootLost     = "元のフォルダが見つからなくなったため、インデックス作成を中止しました: %s（残り %d 件は未取り込みのまま残しました。フォルダを使えるようにしてから、もう一度取り込んでください）"
	msgRootNotNamed = "  「%s」 %s … 今回は取り込むインデックスに選ばれていないため取り込みません（インデックスはそのまま残します）。"
	msgOnlySkipped  = "  「%s」は取り込めません: %s"
	msgRootDisabled = "  「%s」 %s … 取り込み対象外のため取り込みません（インデックスはそのまま残します）。"
	msgRootMissing  = "  「%s」 %s … フォルダが見つからないため取り込みません。"
	msgRootCounts   = "  「%s」対象ファイル %d 件（取り込み済み %d 件 / 新規 %d 件 / 更新あり %d 件 / 前回未完了 %d 件 / 前回失敗 %d 件）"
	msgRootLostIdx  = " / インデックスが無い・壊れている %d 件"
	msgLostIndex    = "    インデックスが無くなった・壊れている %d 件は取り込み直します。（インデックスのファイルを直接削除した・中身の無いファイルが残っている）"
	msgDeleted      = "    元ファイルが無くなった %d 件は、インデックスから除きます。"
	msgScanError    = "    アクセスできないフォルダがあったため、元ファイルが無くなったかどうかの確認は行いませんでした。"
	msgCloudOnly    = "    クラウドにだけあるため取り込まなかったファイル %d 件"
	msgSkippedItem  = "    %s: %s"
	msgFailedSkip   = "前回取り込みに失敗し、その後更新されていないファイル %d 件はスキップします。（パスワード付きなど）"
	msgFailedRetry  = "前回取り込みに失敗し、その後更新されていないファイル %d 件も再取り込みします。"
	msgNothingToDo  = "取り込みが必要なファイルはありません。"
	// msgDeclined and msgConfirmTimedOut end a run declined at the
	// confirmation: by the user, or by nobody answering within the wait
	// (reference/indexing.md §5.3 step 15, older wording: インデックス作成).
	msgDeclined        = "画面で取りやめたため、取り込みません。（取り込み一覧は前回のままです）"
	msgConfirmTimedOut = "画面からの返事が 60 分ありませんでした。インデックス作成を取りやめます。"
	// The start of the ingest phase, in lines that fit 80 columns (issue
	// 32: one line of 165 columns, and 並べて with one process).
	msgStart        = "%d 件のファイルを取り込みます（%d 個のプロセスで並べて取り込みます）。"
	msgStartOne     = "%d 件のファイルを取り込みます。"
	msgStartTimeout = "1 ファイルに %s以上かかったときは、そのファイルを失敗として次へ進みます。"
	msgFileHead     = "[%d/%d] %s"
	msgTSVCount     = "    取り込みました（%d か所）。"
	msgFileFailed   = "    取り込みに失敗しました: %s"
	msgDetail       = "    詳細（英語）: %s"
	msgSwapFailed   = "インデックスのファイルを置けませんでした"
	msgKeptFinished = "    前回の中断の前に取り込みを終えていたファイル %d 件は、その結果を使います。"
	msgPostponed    = "    取り込まずに残しました（次のインデックス作成で取り込みます）: %s"
	msgVanished     = "    元のファイルが無くなったため、取り込まずに一覧から除きます。（移動・削除・名前変更された）"
	msgStopping     = "中止の要求を受けたため、インデックス作成を中止します。（残り %d 件は次回取り込みします）"
	msgPublishFail  = "    インデックスをまとめられませんでした（次のインデックス作成でまとめ直します）: %s"
	msgLeftOut      = "    本文インデックスに入れられなかったファイルは次のインデックス作成で取り込み直します: %s（%s）"
	msgLeftovers    = "集約ファイルに入れていないインデックス（%d フォルダ）をまとめています…"
	// msgRebuilding: the first folder of the run whose body index is of
	// an older format (or damaged) is being converted; each one is then
	// logged with bodyindex.MsgRebuilt.
	msgRebuilding    = "古い形式のインデックスを新しい形式に変換しています（ファイルは取り込み直しません）…"
	msgSummaryFailed = "    インデックス「%s」の検索用の要約を書き込めませんでした（検索は遅くなりますが、結果は変わりません）: %v"
	msgDroppedIndex  = "登録を外したフォルダ（%s）のインデックスを削除しました。"
	msgOrphanKept    = "登録されていないインデックス「%s」（%s）は削除せずに残しました（検索できます）。登録を戻すには fumibako folder restore、削除するには fumibako folder remove %s を実行してください。"
	msgOrphanNoPath  = "元のフォルダは不明"
	msgSourceFile    = "    インデックス「%s」の source_folder.txt を書けませんでした: %v"
	msgRejected      = "取り込み一覧の %d 行は、インデックス名・パスが正しくないため読み飛ばしました。"
	msgListStop      = "。インデックス作成を中止しました（取り込み一覧はそのまま残しています）。一覧を直してタブ区切りのテキストとして保存し直すか、fumibako index --reset-list で今の一覧を別の名前で残して最初から取り込み直してください。"
	msgListReset     = "読み取れない取り込み一覧を %s に移し、最初から取り込み直します。"
	msgListForeign   = "取り込み一覧は別の形式（%s）で保存し直されていたため、読み替えました。終わりに元の形式（UTF-8・BOM 付き・タブ区切り・CRLF）で書き直します。"
	msgOutput        = "ワークスペース: %s"
	msgCrawling      = "クロールしています..."
	msgDone          = "インデックス作成が完了しました。（成功: %d 件 / 失敗: %d 件）"
	msgStopped       = "インデックス作成を中止しました。（成功: %d 件 / 失敗: %d 件）"
	msgDropped       = "取り込みの直前に元のファイルが無くなった %d 件は、取り込まずに一覧から除きました。"
	msgCloudSummary  = "クラウドにだけあるため取り込まなかったファイル %d 件"
	msgSeeList       = "各ファイルの状態・取り込み日時は取り込み一覧 %s で確認できます（fumibako status・fumibako failures でも表示します）。"
	msgFailHead      = "＜取り込みに失敗したファイルと原因＞（すべての一覧: fumibako failures）"
	msgFaultStopping = "作業フォルダに書き込めないため、インデックス作成を中止します。（取り込み中のファイルは未取り込みのまま残し、失敗にはしません）"
	msgFaultKept     = "    作業フォルダに書き込めなかったため、未取り込みのまま残しました。（ファイルの失敗にはしません）"
	msgPublishFault  = "    インデックスをまとめられませんでした（作業フォルダに書き込めません: %s）。次のインデックス作成でまとめ直します。"
	msgFailMore      = "  ほか %d 件（すべての一覧は fumibako failures で表示します。取り込み一覧では「状態」が「失敗」の行、原因は「エラー」列）"
	msgFailHint      = "失敗したファイルをもう一度取り込むには: fumibako index --retry-failed"
	msgNoLibre       = "LibreOffice が見つからないため、%d 件を取り込まずに残しました。LibreOffice を入れてから（Debian・Ubuntu: sudo apt-get install libreoffice-core-nogui libreoffice-calc-nogui libreoffice-writer-nogui libreoffice-impress-nogui）、もう一度インデックス作成を始めると取り込みます。"
	msgNoTextPDF     = "文字のないPDF（画像だけ）が %d 件あります。文字で検索するには OCR が必要です（一覧は indexing_log.txt の「文字のないPDFです」の行）。"
)

// failureListLimit is how many failures the summary lists.
const failureListLimit = 50

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// A reader whose engine could not be prepared (extract.Unavailable, issue
// 36): its files stay 未取り込み, never 失敗.
const (
	msgUnavailableKept = "    読む部品を準備できなかったため、未取り込みのまま残しました。（ファイルの失敗にはしません）"
	msgUnavailable     = "読む部品を準備できなかったため、%d 件を未取り込みのまま残しました。次のインデックス作成でもう一度取り込みます（原因の詳細（英語）は indexing_log.txt にあります）。"
)
