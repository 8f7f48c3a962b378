// Package summary is the per-index summary of the body index, the second
// floor of package bodyindex on top of the folder format (package
// bodyindex/format): one file per index in the content root that lists the
// index's folders and holds a filter of their parts' gram keys in groups,
// so that a search opens only the folders and parts that can match
// (Open, Reader.Candidates, Reader.Dirs), its writer (Write, which reuses
// the rows of unchanged groups of the summary on disk), and the changing
// marker that tells searches not to believe it while a run changes the
// index (MarkChanging, BeginChange, Changing). The indexer writes it through
// package bodyindex (Store.WriteSummary) at the end of a run; search reads
// it; share exports and removes it with its index.
//
// # Files
//
// In the content root, per index:
//
//	.fumibako-summary.<index>        folders and part filters of the index
//	.fumibako-changing.<index>       empty: the index is being changed, so
//	                                 a search checks the summary's folder
//	                                 times (changing.go)
//
// # Summary (.fumibako-summary.<index>)
//
// A search over a large archive must not open every folder's body index to
// learn that a rare word is in five of them: on a 1 GB archive of 400
// folders the folder walk and the manifest and part opens cost more than
// the search itself. The summary of an index answers two questions from
// one small read: which folders exist (without listing them), and which
// parts can hold every key of a query (without opening them).
//
// It is a cache, written by the coordinator at the end of an indexing run
// (Write) into the content root beside the index folder, so that
// writing it changes no folder of the index. A search believes it whole
// unless the index is marked as changing (changing.go): a run marks every
// index before it changes any folder and Write clears the mark, so
// outside runs a search reads the summary and the folders that can match,
// and states no folder. While the mark is there, readers trust a folder's
// entry only while the folder's modification time is the one recorded
// (taken before the folder was listed): publishing a folder renames its
// manifest into it and adding a sub-folder creates an entry, so either
// changes the time, and such a folder is read directly, as without a
// summary. A missing, damaged or other-version summary is ignored the same
// way (the next run writes it again).
// File systems keep coarse times, so a change in the same tick as the
// recorded time would go unseen: the writer records a folder only once
// racyWindow has passed since its time (waiting, then listing it again).
//
// All integers are little-endian.
//
//	offset  size   field
//	0       8      magic "FUMIBAKS"
//	8       4      version (Version)
//	12      4      folder count D (the index folder itself is folder 0)
//	16      4      part count P
//	20      4      row count M (a power of two)
//	24      4      hashes per key H
//	28      4      name pool size N
//	32      4      row size R = ceil((G+D)/8) + 4
//	36      4      group count G (groups.go)
//	40      4      K: the most keys a group has, counted as the sum of
//	               its parts' key counts (as their gram sections count
//	               them; 0 for a part that cannot be read)
//	44      16     the least id (groupID) among the groups with K keys
//	               (zero without groups): the next writer chooses the row
//	               count from it without opening every part that it keeps
//	60      4      CRC-32C of bytes 0..60 and of the folder table, the part
//	               table, the group table and the name pool
//	64      32·D   folder table, parents before children:
//	                 0  4  parent (0xFFFFFFFF for folder 0)
//	                 4  4  name offset in the name pool
//	                 8  4  name length
//	                 12 4  first part (index into the part table)
//	                 16 4  part count
//	                 20 4  flags: 1 has a body index, 2 its manifest could
//	                       not be read (a search opens it to report why)
//	                 24 8  modification time (Unix ns)
//	64+32D  16·P   part table: part ids, folder by folder in manifest order
//	...     4·G    group table: the first part of each group, ascending
//	               from 0; group g holds the parts up to the next group's
//	               first (the last one, up to P). A group holds parts of
//	               one folder.
//	...     N      name pool: folder names, UTF-8
//	...     M·R    rows: a bit-sliced Bloom filter of G+D columns. Bit j of
//	               row r (byte j/8, bit j%8) is set when a part of group j
//	               holds a key that hashes to r (j < G), or when a file
//	               path of folder j-G holds one (its path under the index,
//	               `\` separated, folded: file-name search, issue 18); the
//	               last 4 bytes of a row are its CRC-32C.
//
// A key k sets H rows of one block of summaryBlock rows: block k >> (32 -
// log2(M/summaryBlock)) (the key's top bits), and in it rows
// (a + i·b) mod summaryBlock for i < H, where a and b come from
// k·0x9E3779B97F4A7C15 (b odd). Keys are hashes, so blocks fill evenly;
// and a part's keys, sorted, fall into the blocks in order, so that the
// writer, building the rows band by band, reads only the run of each
// column's keys that falls in the band instead of all of them per band
// (at 10 GB, 22 bands of 48 MB made the summary hash every key 22 times).
// The parts that may hold every key of a
// query are the parts of the groups in the AND of the rows of all its
// keys: H rows per key, each ceil((G+D)/8) bytes, so a query reads a few
// hundred bytes whatever the size of the archive. The exact per-block
// filter of a part still decides what is read once the part is opened.
package summary
