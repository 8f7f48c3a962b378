#!/bin/sh
# Makes ooo2-manifest.odt from text.odt (see gen.sh): the manifest
# OpenOffice.org 2.x writes, with its DOCTYPE, listing the same parts.
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
unzip -q text.odt -d "$dir"
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n'
	printf '<!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//DTD Manifest 1.0//EN" "Manifest.dtd">\n'
	printf '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">\n'
	printf ' <manifest:file-entry manifest:media-type="application/vnd.oasis.opendocument.text" manifest:full-path="/"/>\n'
	for p in content.xml styles.xml meta.xml settings.xml; do
		printf ' <manifest:file-entry manifest:media-type="text/xml" manifest:full-path="%s"/>\n' "$p"
	done
	printf ' <manifest:file-entry manifest:media-type="" manifest:full-path="Thumbnails/thumbnail.png"/>\n'
	printf '</manifest:manifest>\n'
} >"$dir/META-INF/manifest.xml"
rm -rf "$dir/Configurations2" "$dir/manifest.rdf"
out=$(pwd)/ooo2-manifest.odt
rm -f "$out"
(cd "$dir" && zip -q -X -0 "$out" mimetype && zip -q -X -r "$out" . -x mimetype)
