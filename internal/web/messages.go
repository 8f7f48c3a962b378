package web

// User-facing texts of the web UI, from reference/gui.md. Where the
// reference gives a newer 更新 wording and an [older: …] 取り込み one, the
// older is used (DESIGN.md "Wording"); texts without an older variant say
// the reference's text in the vocabulary the CLI uses too (issue 17,
// cmd/fumibako/messages.go): a run is インデックス作成, a file is
// 取り込む, and 更新 only means a file's modification. Texts the browser
// composes on its own (dialog buttons, column names) live in assets/*.js
// beside the same citations.
const (
	// Interrupted run (gui.md §2.1).
	msgInterrupted = "インデックス作成を中断しました（残り %d 件）"

	// Index operations refused during a run (gui.md §2.6); %s is 追加,
	// 編集 or 削除.
	msgBusy = "インデックス作成中はインデックスを%sできません。インデックス作成が終わるまでお待ちください（［中止］で止められます）。"

	// Index edits (gui.md §2.4, §2.5).
	msgEdited      = "インデックスを変更しました（%s）"
	msgRenamedName = "名前「%s」 → 「%s」"
	msgMovedPath   = "場所 %s → %s"
	msgAdded       = "インデックス「%s」を追加しました（%s）"
	msgRemoved     = "インデックス「%s」を削除しました（インデックスは次のインデックス作成で消えます。元のファイルはそのまま残ります）"
	// A folder typed in the browser is a path on the server: a relative
	// one would be resolved against the server's working folder, and a
	// Windows path means nothing to a server on Linux or macOS (issue 18).
	msgRelativePath = "元のフォルダは「%s」のような相対パスではなく、絶対パスで指定してください。"
	msgWindowsPath  = "「%s」は Windows のパスのため、このコンピューターでは開けません。共有フォルダをマウントしたフォルダのパスを指定してください。"

	// Failure list (gui.md §2.3, older title).
	msgNoCause = "（原因は記録されていません）"
	// Expected failures (issue 18).
	msgIgnored   = "%s の失敗を無視します（インデックスの状態に数えません）"
	msgUnignored = "%s の失敗を無視するのをやめました"

	// Opening the original (search.md §9, gui.md §4.8).
	msgFileMissing      = "%s が見つかりません"
	msgOpenRemote       = "このパソコンで開いているブラウザからだけ、元のファイルを開けます。ダウンロードしてください。"
	msgOpened           = "元のファイルを開きました：%s"
	msgOpenFailed       = "元のファイルを開けませんでした：%s（%s）"
	msgOpenerNotStarted = "開くアプリケーションを起動できませんでした"
	msgNoIndexRoot      = "インデックス「%s」の元のフォルダが登録されていません。"
	// Opening a received index's file (issue 30; reference/search.md §9).
	msgReadOnlyImpossible = "受け取ったインデックスのマクロを含められるファイルは読み取り専用でしか開きませんが、読み取り専用のコピーを作れなかったため開きませんでした：%s"
	msgOpenedCopy         = "元のファイルを読み取り専用のコピーで開きました：%s"
	msgUnreachable        = "✗ 元のフォルダに接続できません：%s"
	msgSourceRemote       = "元のフォルダは、このパソコンで開いているブラウザからだけ変えられます。"

	// Export (search.md §8).
	msgSearchFirst = "先に検索してください。"
)
