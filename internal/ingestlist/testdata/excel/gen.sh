#!/bin/sh
# Regenerates the re-saved ingest lists in this folder from
# ../seed_sample.tsv with programs other than fumibako (issue 15, item 4):
# iconv for the encodings Excel saves (cp932 "Text (Tab delimited)",
# UTF-16 LE/BE "Unicode text"), sed for Excel's re-formatted dates, and
# LibreOffice Calc (ja-JP locale) opening the TSV and saving it again, which
# re-formats the dates as Excel does on a Japanese system (2025/1/10 12:34),
# quotes every text cell and pads the folder lines to the header's width.
# Needs iconv, sed and soffice. Run from this folder: sh gen.sh
set -eu
seed=../seed_sample.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tail -c +4 "$seed" >"$tmp/nobom.tsv" # drop the UTF-8 BOM

# Excel's dates with seconds and without leading zeros (a cell formatted
# yyyy/m/d h:mm:ss), CRLF kept, saved as cp932.
sed -e 's#2025/01/10 12:34:56#2025/1/10 12:34:56#g' -e 's#2026/09/19 10:00:#2026/9/19 10:00:#g' \
	-e 's#2026/09/18 09:00:00#2026/9/18 9:00:00#g' "$tmp/nobom.tsv" >"$tmp/dates.tsv"
iconv -f UTF-8 -t CP932 "$tmp/dates.tsv" >iconv_cp932_crlf.tsv

# Excel's "Unicode text": UTF-16 with a BOM, TAB, CRLF (seed dates).
{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$tmp/nobom.tsv"; } >iconv_utf16le.tsv
{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$tmp/nobom.tsv"; } >iconv_utf16be.tsv

# Excel for Mac's line ends (CR alone), UTF-8 without a BOM.
tr -d '\n' <"$tmp/nobom.tsv" >cr_only.tsv

# LibreOffice Calc, ja-JP: open the TSV, save it as Text CSV with TAB.
mkdir -p "$tmp/profile/user" "$tmp/in"
cat >"$tmp/profile/user/registrymodifications.xcu" <<'XCU'
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>ja-JP</value></prop></item>
</oor:items>
XCU
cp "$tmp/nobom.tsv" "$tmp/in/list.csv"
lo() { # charset token, output name
	soffice -env:UserInstallation="file://$tmp/profile" --headless --infilter="CSV:9,34,76,1" \
		--convert-to "csv:Text - txt - csv (StarCalc):9,34,$1,1" --outdir "$tmp/out" "$tmp/in/list.csv" >/dev/null 2>&1
	mv "$tmp/out/list.csv" "$2"
}
lo 64 libreoffice_cp932.tsv      # Shift_JIS (cp932)
lo 65535 libreoffice_utf16.tsv   # Unicode (UTF-16 with a BOM)
# Comma-separated (a list saved as CSV): cannot be read, must stop the run.
soffice -env:UserInstallation="file://$tmp/profile" --headless --infilter="CSV:9,34,76,1" \
	--convert-to "csv:Text - txt - csv (StarCalc):44,34,76,1" --outdir "$tmp/out" "$tmp/in/list.csv" >/dev/null 2>&1
mv "$tmp/out/list.csv" libreoffice_comma.csv
