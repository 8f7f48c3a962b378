package main

import "github.com/fumibako/fumibako/internal/search"

// The vocabulary of every message, CLI and web alike (issue 17), decided
// here once; the seed's 取り込み family (DESIGN.md "Wording"):
//
//	インデックス作成   a run of `fumibako index` (the seed's word for the run)
//	取り込む / 取り込み  reading one file into the index; 取り込めません, 取り込みに失敗しました
//	取り込み対象 / 対象外  a registered folder that the next run reads, or skips (settings' enabled)
//	クロール対象フォルダ  a registered folder (a crawl root) and its インデックス名
//	取り込み一覧       ingest_status.tsv, always named with its full path
//	場所              a sheet, page or slide of a file (never "TSV")
//	更新              only a file's modification (更新日時, 更新あり), never the run
//
// Words users never read: TSV, store, Unknown, Password, チェック, 画面 (the
// CLI has no screen). TestVocabulary checks the message tables.

// Help texts.
const (
	msgTopAbout      = "fumibako（文箱）— Office 文書とテキストファイルを取り込んでインデックスを作り、すばやく検索します。"
	msgUsageLine     = "使い方: fumibako %s"
	msgCommands      = "コマンド:"
	msgSubcommands   = "サブコマンド:"
	msgOptions       = "オプション:"
	msgCommonOptions = "共通のオプション（どのコマンドにも付けられます）:"
	msgExamples      = "例:"
	msgHelpFlag      = "この説明を表示する"
	msgTopHelpHint   = "コマンドごとの説明は「fumibako help コマンド」または「fumibako コマンド --help」で表示します。"
	msgSubHelpHint   = "サブコマンドごとの説明は「fumibako %s サブコマンド --help」で表示します。"
	msgExitCodes     = `終了コード:
  0  完了した（search: 見つかった。help: 説明を表示した）
  1  続けられないエラーで中止した（search: 見つからなかった）
  2  コマンドの書き方が正しくない、または中止した（Ctrl-C、取りやめ）`
)

// Command-line errors (exit 2).
const (
	msgUnknownCommand = "「%s」というコマンドはありません。"
	msgDidYouMean     = search.MsgDidYouMean
	msgUnknownSub     = "「%s」に「%s」というサブコマンドはありません。"
	msgNoSub          = "「%s」のあとにサブコマンドを指定してください。"
	msgUnknownFlag    = "「%s」というオプションはありません。"
	msgExcludeHint    = "「%s」を含む行を除くときは「--not %s」と書いてください。"
	msgFlagNeedsValue = "「%s」のあとに%sを指定してください。"
	msgFlagBadValue   = "「%s」の値「%s」は使えません（%s）。"
	msgHintBool       = "true か false を指定してください"
	msgHintInt        = "整数を指定してください"
	msgHintDuration   = "時間を 10m、90s、1h30m のように指定してください"
	msgHintText       = "値を確かめてください"
	msgTooFewArgs     = "引数が足りません。"
	msgTooManyArgs    = "引数が多すぎます（「%s」は使いません）。"
	msgSeeHelp        = "（「fumibako %s --help」で使い方を表示します）"
	msgSeeTopHelp     = "（「fumibako help」でコマンドの一覧を表示します）"
	msgBadColor       = "auto・always・never のどれかを指定してください"
)

// Errors and their hints.
const (
	msgErrorHead      = "＜エラー＞ %s"
	msgInternal       = "予期しないエラーのため、処理を続けられませんでした。"
	msgInternalHint   = "--verbose を付けてもう一度実行すると、詳しい内容を表示します。"
	msgInternalDetail = "詳細（英語）: %v"
	msgNoRoots        = "インデックスが登録されていません。fumibako folder add フォルダ で登録してください。"
	msgNoEnabled      = "取り込み対象のインデックスがありません。fumibako folder enable インデックス名 で取り込み対象にしてください。"
	msgOnlyDisabled   = "インデックス「%s」は取り込み対象から外れています。fumibako folder enable %s で取り込み対象にしてから実行してください。"
	msgNoWorkspace    = "ワークスペースのフォルダを決められませんでした。--workspace フォルダ で指定してください。"
	msgOpenWorkspace  = "ワークスペース「%s」を開けませんでした（フォルダを作れるか、書き込めるかを確かめてください）。"
	msgListenFailed   = "%s で待ち受けられませんでした（ほかのアプリが使っていないか、アドレスを確かめてください）。"
	msgUnknownIndex   = "インデックス「%s」はありません（登録されているインデックス: %s。一覧は fumibako folder list で表示します）。"
	msgNoIndexes      = "インデックス「%s」はありません（インデックスが登録されていません）。"
	msgFolderOutside  = "「%s」は登録されている元のフォルダの中にありません（一覧は fumibako folder list で表示します）。"
	msgFolderMissing  = "「%s」にあたるフォルダもファイルもありません（インデックス名\\フォルダ、または元のフォルダの中のフォルダを指定してください）。"
	msgExportNoFolder = "出力先のフォルダ「%s」がありません。フォルダを作るか、ほかの出力先を指定してください。"
	msgExportFailed   = "%s に書き込めませんでした。"
	msgNoIndexYetCLI  = "コマンドでは fumibako folder add <フォルダ> のあと fumibako index で作成します。"
	msgBadSort        = "指定できるのは path・date・hits"
	msgBadFormat      = "指定できるのは txt・csv・json"
	msgFormatNoExport = "--format は --export といっしょに指定してください。"
	msgExportIsFolder = "「%s」はフォルダです。出力するファイルの名前（例: 結果.tsv）まで指定してください。"
	msgExportHint     = "ほかのアプリで開いているときは閉じてから、もう一度出力してください。"
)

// Source folders and opening a hit (issue 30; reference/search.md §9).
const (
	msgSourceNoIndex      = "インデックス「%s」はありません（一覧は fumibako folder list で表示します）。"
	msgSourceHint         = "元のフォルダを確かめてから、fumibako folder source %s フォルダ で登録してください（フォルダを移したときは、移した先を指定します）。"
	msgReadOnlyImpossible = "受け取ったインデックスのマクロを含められるファイルは読み取り専用でしか開きませんが、読み取り専用のコピーを作れなかったため開きませんでした: %s"
	msgOpenFailed         = "元のファイルを開けませんでした：%s（%s）"
	msgOpenerNotStarted   = "開くアプリケーションを起動できませんでした"
	msgBadOpenMode        = "--mode には normal（通常）、readOnly（読み取り専用）、new（コピーを新規に開く）のどれかを指定してください: %s"
	msgUnreachable        = "元のフォルダに接続できません：%s（15 秒待っても応答がありませんでした。ネットワークのドライブがつながっているか確かめてください）"
	msgOpenedFile         = "元のファイルを開きました：%s"
	msgOpenedReadOnly     = "元のファイルを読み取り専用のコピーで開きました：%s（コピー: %s）"
	msgAddedAbsent        = "※ %s"
	msgFreedIndex         = "インデックス「%s」を削除しました。"
	msgFreeLater          = "インデックス作成が実行中のため、インデックスは今は削除できません。次のインデックス作成で削除します。"
	msgMovedRoot          = "インデックスを変更しました（「%s」場所 %s → %s）。次のインデックス作成で、変わったファイルだけを取り込みます。"
	stateReceived         = "受け取ったインデックス（取り込みません）"
	stateReceivedNew      = "受け取ったインデックス（元のフォルダを確かめていません。fumibako folder source で確かめてください）"
)

// Status, folder list and failures.
const (
	msgEnabled        = "対象"
	msgDisabled       = "対象外"
	msgRunning        = "インデックス作成が実行中です。"
	msgWatchPicked    = "%s 取り込みました: %s"
	msgWatchRemoved   = "%s 削除を反映しました: %s"
	msgWatchFailed    = "%s 取り込みに失敗しました: %s（%s）"
	msgWatchPostponed = "%s 取り込まずに残しました: %s（%s）"
	msgWatchStopped   = "監視を終了しました。"
	msgWatcherHolds   = "fumibako watch（PID %d、%s から）がフォルダを見張っていて、インデックス作成のロックを持っています。いまは%s。"
	msgWatchRescan    = "  「%s」 %s: %s（一定の間隔で調べ直しています）"
	msgWatchLast      = "  最後に取り込んだ変更: %s %s"
	msgNever          = "-"
	msgFailuresCount  = "取り込みに失敗したファイル %d 件"
	msgFailuresNone   = "取り込みに失敗したファイルはありません。"
	msgRetryHint      = "もう一度取り込むには: fumibako index --retry-failed"
	msgListAt         = "取り込み一覧: %s"
	msgAddedRoot      = "インデックスを追加しました: 「%s」 %s（次のインデックス作成で取り込みます）"
	msgRenamedRoot    = "インデックスの名前を変えました: 「%s」 → 「%s」"
	msgEnabledRoot    = "「%s」を取り込み対象にしました（次のインデックス作成で取り込みます）。"
	msgOCRImagesOn    = "「%s」の画像ファイル（.tif .tiff .png .jpg .jpeg .bmp）も OCR で取り込みます（次のインデックス作成で取り込みます）。"
	msgOCRImagesOff   = "「%s」の画像ファイルは取り込みません（次のインデックス作成でインデックスから除きます）。"
	msgOCRImagesMark  = "（画像も OCR）"
	msgOCRSwitch      = "on か off を指定してください: %s"
	msgDisabledRoot   = "「%s」を取り込み対象から外しました（インデックスはそのまま残し、検索できます）。"
	msgRemovedRoot    = "インデックスの登録を外しました: 「%s」 %s（インデックスは次のインデックス作成で削除します。元のファイルはそのまま残ります）"
	msgNoFailureCause = "（原因は記録されていません）"
	// folder set --hidden-sheets (issue 31).
	msgHiddenSheetsOn   = "「%s」の Excel ブックの非表示のシートも取り込みます（次のインデックス作成で Excel ブックを読み直します）。"
	msgHiddenSheetsOff  = "「%s」の Excel ブックの非表示のシートは取り込みません（次のインデックス作成で Excel ブックを読み直します）。"
	msgHiddenSheetsMark = "（非表示のシートも）"
	msgFolderSetNothing = "変える設定を指定してください（--hidden-sheets on または off）。"
	msgOnOff            = "指定できるのは on と off"
)

// Progress line of `fumibako index` on a terminal.
const (
	msgBar       = "%s %d/%d 件"
	msgBarFailed = " 失敗 %d"
	msgBarRate   = " %.1f 件/秒"
	msgBarLeft   = " 残り %s"
	msgBarOCR    = " OCR %d/%d ページ"
)
