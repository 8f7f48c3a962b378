// Package libreoffice converts what the native readers do not cover
// (.xls .xlsb .doc .ppt variants, DESIGN.md "Extraction") with LibreOffice
// (soffice --headless, a private profile per worker, kept warm across files
// in warm.go, killed with the worker's process tree) and reads the result
// as OOXML; convert.go states the command line. It also finds the program
// on every OS and checks files before converting (precheck.go).
package libreoffice
