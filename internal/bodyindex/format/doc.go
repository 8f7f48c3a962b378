// Package format is the on-disk format of one folder's body index: the
// manifest and the content-addressed parts, their reader (Folder, mapped
// through a cache of mappings shared by the searches of a process;
// ReadFile, ReadPlace) next to their writer (Encoder, EncodeManifest), a
// part's n-gram filter (gram keys and block masks; KeyFile reads a part's
// keys without mapping it), and the deletion of index files that a search
// may hold mapped (RemoveOrDefer). It knows neither queries (package
// search) nor when a folder is published (package bodyindex: Publish,
// Rebuild), nor the per-index summary built on top of it.
//
// # Files
//
// The body index of the folder <content root>/<index>/<rel dir> lives in
// that folder, beside the source subfolders and the per-file folders that
// wait to be published (DESIGN.md "Layout on disk"):
//
//	.fumibako-index                  the manifest: version, part list, file table
//	.fumibako-index.<32 hex digits>  a part, named after its content (SHA-256)
//
// The per-index summary and changing marker in the content root are
// package bodyindex/summary's.
//
// Dot names cannot clash with source names: the crawl skips dot files and
// folders. A part's name is the first 16 bytes of the SHA-256 of its bytes,
// so the same content always has the same name; publishing writes the parts
// first, then the manifest (temporary name, fsync, rename, fsync of the
// folder), then deletes the parts the manifest no longer lists and the
// per-file folders it merged. The manifest rename is the commit point: a
// crash before it leaves the old manifest and its parts (plus orphans that
// the next publish deletes); a crash after it leaves the new index and
// per-file folders that the next publish merges again into the same bytes.
//
// A reader reads the manifest, then opens the parts it lists. A part deleted
// between the two (a publish committed meanwhile) makes the reader read the
// manifest again, so it sees the old or the new version of a folder, never
// a mix. Once open, a part stays readable on Unix after it is deleted; on
// Windows the delete fails while a search holds the part, and the next
// publish of that folder deletes the leftover.
//
// # Manifest (.fumibako-index)
//
// All integers are little-endian. The manifest is small (40 bytes
// per part, 56 per file, plus the names) and is read whole.
//
//	offset  size        field
//	0       8           magic "FUMIBAKI"
//	8       4           format version (Version)
//	12      4           part count P
//	16      4           file count F
//	20      4           name pool size N
//	24      4           reserved, 0
//	28      4           CRC-32C (Castagnoli) of bytes 32 to the end
//	32      40·P        part table, in search order:
//	                      0  16  part id (file name .fumibako-index.<hex id>)
//	                      16 8   part size in bytes
//	                      24 4   first file (index into the file table)
//	                      28 4   first line (line index within that file)
//	                      32 4   last file (the file holding the part's last line)
//	                      36 4   end line (exclusive, within the last file)
//	32+40P  56·F        file table, sorted by file name (upper-cased, then bytes):
//	                      0  4   name offset in the name pool
//	                      4  4   name length
//	                      8  4   places (the TSVs the file had; 0 = no text)
//	                      12 4   lines (all places together)
//	                      16 8   text bytes (UTF-8, one LF per line)
//	                      24 8   folded bytes (one LF per line)
//	                      32 8   modification time of the source file as
//	                             indexed (Unix ns; 0 = unknown)
//	                      40 8   size of the source file as indexed (bytes)
//	                      48 8   reserved, 0
//	32+40P+56F N        name pool: file names, UTF-8
//
// The time and size come from the per-file folder's .source file
// (package content), which the coordinator writes from the crawl before
// the folder is swapped in; search compares them with the file on disk
// to mark a hit whose file changed or was deleted since.
//
// A file's "line index" counts the lines of all its places in document
// order from 0. A file without text has no lines and appears in no part.
//
// # Part (.fumibako-index.<hex>)
//
// A part holds a run of lines of consecutive files (a file may continue in
// the next part when it is larger than a part) and everything needed to
// search them and to show, export or rebuild them. It is read through mmap.
//
//	offset  size   field
//	0       8      magic "FUMIBAKP"
//	8       4      format version (Version)
//	12      4      section count S (at most 32)
//	16      12·S   section directory: tag, offset, size (uint32 each)
//	...            sections, in any order; unknown tags are skipped
//
// Sections (tag: layout):
//
//	1 strs  string pool (file and place names), UTF-8
//	2 file  count C, then C × {name offset, name length}: the part's files
//	3 segs  count G, then G × 24 bytes, one per run of lines of one place:
//	          0 file (index into the part's files)  4 place name offset
//	          8 place name length  12 line number of the run's first line
//	          (1-based within the place)  16 first line (index into the
//	          line table)  20 line count. A continuation line (one that
//	          starts with extract.ContinuationMark: a line over
//	          extract.LineMaxRunes runes was split) starts a run of its
//	          own, numbered as the line it continues: the lines of a run
//	          are numbered on from its first, so a line split in three
//	          keeps its number and the lines after it keep theirs
//	4 line  L+1 × uint32: byte offset of each line in the fold section
//	        (the last entry is the section's length)
//	5 blck  count B (1..64), then B × 20 bytes, one per block of whole lines:
//	          0 first line  4 offset of the block's patches in the orig
//	          section  8 their size  12 size of the block's original text
//	          16 reserved, 0
//	6 fold  the folded lines (package textfold), each followed by LF
//	7 orig  per block, the patches that turn its folded text back into the
//	        original: for each run of runes whose folded bytes differ from
//	        the original ones, uvarint(gap since the end of the previous
//	        patch, in folded bytes from the block start), uvarint(folded
//	        length), uvarint(original length), the original bytes. A block
//	        of pure Japanese text has none; `Apple ＡＢＣ` has two
//	        (`A` for `a`, `ＡＢＣ` for `abc`).
//	8 gram  count K, then K × uint32 keys (ascending), then K masks of W
//	        bytes each (little-endian), W = 1, 2, 4 or 8: the fewest bytes
//	        that hold B bits (B the block count; version 2: always 8).
//	        Bit b of a key's mask is set when block b holds that key
//
//	9 gidx  every 128th key of the gram section (optional): a lookup
//	        binary-searches this small index, then one run of 128 keys
//
// The writer puts blck, gidx and gram first, so that deciding to skip a
// part touches a few pages at its start.
//
// Keys are 32-bit hashes of the unigrams, bigrams and ASCII trigrams of each
// folded line after hiragana = katakana folding (textfold.GramKey). A query needs
// every key of each of its words in one block; a block without them cannot
// hold a matching line and is not read, and a part without them is skipped
// after the binary searches. Blocks hold about 64 KiB of folded text; a part
// holds at most 64 blocks (about 4 MiB).
//
// Why a folded copy and patches: matching runs on the folded text, which
// must be plain bytes to be fast; the original text is needed only for the
// lines that match (display, --case, export) and for Rebuild. Most runes
// fold to themselves, so the original is stored as the few differences;
// rebuilding a block is a copy at memory speed, and the body index stays
// under twice the UTF-8 text (DESIGN.md "Performance targets").
//
// # Malformed input
//
// Every offset, count and size read from a file is checked before it is
// used. A manifest that does not parse, fails its CRC or has another
// version gives an error (*RebuildError for another version or magic); a
// part that does not parse gives an error naming it, and search skips it
// and reports it. Line offsets are checked when a block is read. Nothing
// panics on bad bytes.
package format
