// Package biff12 frames the records of .xlsb parts ([MS-XLSB] 2.1.4): a
// record type of 1 or 2 bytes and a size of 1 to 4 bytes, 7 bits each, then
// the data; and names the record types the .xlsb reader reads.
package biff12
