// Package biff is the record layer of the Excel binary formats ([MS-XLS]
// §2.1.4: BIFF3/4/5/7/8 records with their CONTINUE records; the little-
// endian field, RK number and error-code helpers that [MS-XLSB] records
// share): the record reader, the record and substream type numbers, and
// the default-password RC4 decryption of a record stream ([MS-XLS]
// §2.2.10, [MS-OFFCRYPTO] §2.3.6). The workbook reader built on it is
// package xls; .xlsb (package xlsx) and the test fixtures use the helpers.
package biff
