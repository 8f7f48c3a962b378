package bodyindex

// Log lines for the indexer (indexing_log.txt) when a folder's body index
// had to be rebuilt (Rebuild). fumibako's own wording, in the 取り込み
// family of the seed; %s is the folder relative to store/content.
const (
	// MsgRebuilt: an index of an older version was converted in place.
	MsgRebuilt = "    古い形式のインデックスを作り直しました: %s"
	// MsgRebuildDropped: an index that could not be read was removed; its
	// %d files are ingested again.
	MsgRebuildDropped = "    読めないインデックスを削除しました（%d 件のファイルは取り込み直します）: %s"
)
