// Package desktop acts on a source file with the desktop's applications
// (reference/search.md §9, reference/gui.md §4.8): open a hit's file in an
// open mode (openMode: normal, readOnly, new), Excel at the hit's sheet and
// cell, show its folder, open a URL. It is the one place that knows the
// command lines of xdg-open, open, rundll32, Explorer, Notepad, LibreOffice
// and the Windows shell verbs; the web UI and `fumibako open` both call it.
// It does not decide which file may be opened (package source does: a
// received index's macro-capable files open as read-only copies), and it
// never changes a source file.
//
// Per system:
//
//	                 Windows                                   Linux / macOS
//	Excel file       open-excel.ps1 through Excel's COM:       default app (xdg-open / open);
//	                 sheet and cell, mode, AutomationSecurity   readOnly: soffice --view,
//	                 2 while opening; else the default app      new: soffice -n (where installed)
//	Word/PowerPoint  shell verbs OpenAsReadOnly / New           as above
//	                 (ShellExecute), else the default app
//	script (.bat .cmd .ps1 .vbs .js .reg .sh)                  macOS: open -t (text editor)
//	                 %SystemRoot%\System32\notepad.exe, never run
//	other            rundll32 url.dll,FileProtocolHandler       default app
//	folder           explorer.exe /select,"<file>"             xdg-open <folder> / open -R <file>
//
// A read-only copy of a received index's file (Target.Protected) never
// goes through Excel's COM, which would open it outside Protected View:
// on Windows it takes the OpenAsReadOnly verb like Word and PowerPoint.
//
// The Excel script (excelScript, open-excel.ps1) is written by the binary
// into the workspace's work/tmp through workspace.WriteFileAtomic (UTF-8
// with BOM, so Windows PowerShell 5.1 reads it as UTF-8; CRLF) and run as
//
//	%SystemRoot%\System32\WindowsPowerShell\v1.0\powershell.exe -NoProfile -ExecutionPolicy Bypass -File <script> <path> <mode> <sheet> <cell>
//
// Each argument is `u` followed by the standard base64 of its UTF-8 text
// (`u` alone is empty), so no file or sheet name can be read as a
// PowerShell parameter (`-1`), lose its quotes or be dropped when empty.
// The script exits 0 when Excel shows the workbook, 2 when Excel cannot be
// started (not installed) and 3 when it cannot open the file; anything but
// 0 opens the file with the default application instead, with a message.
//
// Every program is started through Desktop.Exec and every shell verb
// through Desktop.Shell: tests replace both and see the exact command
// lines (the pattern of cmd/fumibako's scheduler).
package desktop
