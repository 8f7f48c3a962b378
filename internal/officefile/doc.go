// Package officefile sniffs a file from its first bytes and classifies its
// protection before any reader or converter touches it
// (reference/extraction.md §10). It owns no workspace file and imports no
// fumibako package.
//
// # Sniffing (Sniff)
//
// Only the first 4,096 bytes are read:
//
//	50 4B 03 04 …                    ZIP (OOXML package)
//	D0 CF 11 E0 A1 B1 1A E1 …        CFB (MS-CFB compound file: .xls .doc .ppt,
//	                                 encrypted OOXML, IRM)
//	anything else without a NUL      Text (empty, RTF, HTML, CSV, UTF-8, UTF-16 with BOM)
//	anything else with a NUL         Unknown (binary of no known format)
//
// # Protection (Detect, DetectProtection)
//
// A CFB is classified by the names in its directory, matched ignoring case
// anywhere in the tree, as the reference does:
//
//	EncryptionInfo, StrongEncryptionDataSpace        Password
//	DRMEncryptedDataSpace, DRMEncryptedTransform,    Rights
//	\x09DRMContent (legacy IRM), or \x06DataSpaces
//	with nothing recognised (fail-safe)
//
// then, beyond the reference (tebunko left these to Office's dummy-password
// open, fumibako must decide before starting LibreOffice), by the legacy
// encryption marker of the root-level stream of each binary format:
//
//	Workbook / Book     [MS-XLS] 2.4.117 FilePass record (0x002F) among the
//	                    records of the globals substream → Password, unless
//	                    its verifier accepts Excel's default password
//	                    "VelvetSweatshop" ([MS-OFFCRYPTO] 2.3.6, 2.3.5, 2.3.7),
//	                    which Excel and LibreOffice open silently → Legacy
//	WordDocument        [MS-DOC] 2.5.2 FibBase.fEncrypted (bit 8 of the
//	                    16-bit flags at offset 10) → Password
//	Current User        [MS-PPT] 2.3.2 CurrentUserAtom.headerToken
//	                    0xF3D1C4DF (encrypted document), or a root stream
//	                    EncryptedSummary ([MS-PPT] 2.1.3) → Password
//
// Any other CFB is Legacy, and so is a CFB whose directory cannot be read at
// all.
//
// Only Password and Rights say that a file is encrypted (Encrypted), and
// only on the evidence above: a stream or record that the format defines
// for encryption. A binary of no known format (random bytes, a file cut off
// before its signature, the reference's Unknown, which it took for the
// ciphertext of a transparent-encryption product) carries none, so it is
// Unknown and its readers call it damaged, not encrypted (issue 16). Detection.Program names the application of a CFB by the same root
// streams (Excel, Word, PowerPoint), so a legacy file under the wrong
// extension is still converted to the right format. IsBIFFStream recognises
// the bare BIFF2–4 streams of Excel 2.x–4.x, which are no CFB and hold NULs
// (Sniff: Unknown). The CFB walk is defensive and bounded: every sector number is checked
// against the file size, chains are cut at the number of sectors the file can
// hold, at most 65,536 directory entries are read, and stream reads stop at a
// few KB, so a hostile file allocates memory in proportion to neither its
// declared counts nor its size.
package officefile
