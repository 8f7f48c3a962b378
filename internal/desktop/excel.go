package desktop

import (
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// ExcelScriptName is the Excel script's file name under the workspace's
// work/tmp.
const ExcelScriptName = "open-excel.ps1"

// excelScript opens a workbook in Excel through COM (reference/search.md
// §9): a running Excel is reused, else one is started; a workbook already
// open is reused (not in mode new); readOnly opens it read-only, new makes
// an untitled workbook from it (Workbooks.Add); macro security follows the
// user's setting (AutomationSecurity 2, msoAutomationSecurityByUI) while
// the file opens and is restored afterwards. Then the sheet whose name is
// the hit's place is activated (else the one whose name, made safe as
// toSafeFileName makes it, is; chart sheets are sheets too) and the cell
// selected (not on a chart sheet). ASCII only: the full-width characters
// are written as [char] codes. See the package comment for its arguments
// and exit codes.
const excelScript = `# fumibako: open a workbook in Excel at a sheet and cell (reference/search.md section 9).
# Written by fumibako; run as: powershell -NoProfile -ExecutionPolicy Bypass -File open-excel.ps1 <path> <mode> <sheet> <cell>
# Each argument is "u" followed by the base64 of its UTF-8 text.
# Exit 0: Excel shows the workbook; 2: Excel cannot be started; 3: Excel cannot open the file.
$ErrorActionPreference = 'Stop'
function Get-Arg([string]$a) { [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($a.Substring(1))) }
function Get-SafeName([string]$s) {
  $map = @{ '>' = 0xFF1E; '<' = 0xFF1C; '\' = 0xFFE5; '*' = 0xFF0A; '"' = 0x201D; ':' = 0xFF1A; '?' = 0xFF1F; '|' = 0xFF5C; '/' = 0xFF0F }
  $b = New-Object Text.StringBuilder
  foreach ($c in $s.ToCharArray()) {
    $k = [string]$c
    if ($map.ContainsKey($k)) { [void]$b.Append([char]$map[$k]) } elseif ([int]$c -ge 32) { [void]$b.Append($c) }
  }
  $b.ToString()
}
$path = Get-Arg $args[0]; $mode = Get-Arg $args[1]; $sheet = Get-Arg $args[2]; $cell = Get-Arg $args[3]
$started = $false
try {
  try { $xl = [Runtime.InteropServices.Marshal]::GetActiveObject('Excel.Application') }
  catch { $xl = New-Object -ComObject Excel.Application; $started = $true }
} catch { [Console]::Error.WriteLine($_.Exception.Message); exit 2 }
try {
  $wb = $null
  if ($mode -ne 'new') {
    foreach ($w in $xl.Workbooks) { if ($w.FullName -ieq $path) { $wb = $w; break } }
  }
  if ($wb -eq $null) {
    $security = $xl.AutomationSecurity
    $xl.AutomationSecurity = 2
    try {
      if ($mode -eq 'new') { $wb = $xl.Workbooks.Add($path) }
      elseif ($mode -eq 'readOnly') { $wb = $xl.Workbooks.Open($path, 0, $true) }
      else { $wb = $xl.Workbooks.Open($path) }
    } finally { $xl.AutomationSecurity = $security }
  }
  $xl.Visible = $true
  $xl.UserControl = $true
  if ($xl.WindowState -eq -4140) { $xl.WindowState = -4143 }
  $wb.Activate()
} catch {
  [Console]::Error.WriteLine($_.Exception.Message)
  if ($started -and $xl.Workbooks.Count -eq 0) { $xl.Quit() }
  exit 3
}
if ($sheet -ne '') {
  try {
    $target = $null
    foreach ($s in $wb.Sheets) { if ($s.Name -ieq $sheet) { $target = $s; break } }
    if ($target -eq $null) { foreach ($s in $wb.Sheets) { if ((Get-SafeName $s.Name) -ieq $sheet) { $target = $s; break } } }
    if ($target -ne $null) {
      $target.Activate()
      $chart = $false
      foreach ($c in $wb.Charts) { if ($c.Name -ieq $target.Name) { $chart = $true; break } }
      if (-not $chart -and $cell -ne '') { $target.Range($cell).Select() }
    }
  } catch { [Console]::Error.WriteLine($_.Exception.Message) }
}
try { Add-Type -AssemblyName Microsoft.VisualBasic; [Microsoft.VisualBasic.Interaction]::AppActivate($xl.Caption) } catch { }
exit 0
`

// scriptBytes is the script as written: UTF-8 BOM (Windows PowerShell 5.1
// reads a file without one in the ANSI code page) and CRLF.
func scriptBytes() []byte {
	return []byte("\ufeff" + strings.ReplaceAll(excelScript, "\n", "\r\n"))
}

// scriptArg encodes one argument of the script (package comment).
func scriptArg(s string) string { return "u" + base64.StdEncoding.EncodeToString([]byte(s)) }

// excelCommand is the command line that runs the script for t.
func (d *Desktop) excelCommand(script string, t Target) Command {
	sheet, cell := sheetAndCell(t.Place, t.Cell)
	return Command{
		Name:    d.SystemRoot + `\System32\WindowsPowerShell\v1.0\powershell.exe`,
		Args:    []string{"-NoProfile", "-ExecutionPolicy", "Bypass", "-File", script, scriptArg(t.Path), scriptArg(string(t.Mode)), scriptArg(sheet), scriptArg(cell)},
		Verdict: excelVerdict,
	}
}

// openExcel opens a workbook through the Excel script; when the script
// cannot be written or run, or Excel is missing or refuses the file, the
// default application opens it and the note says so.
func (d *Desktop) openExcel(t Target) (string, error) {
	script := filepath.Join(d.TmpDir, ExcelScriptName)
	err := workspace.MkdirAll(d.TmpDir)
	if err == nil {
		err = workspace.WriteFileAtomic(script, scriptBytes())
	}
	if err == nil {
		err = d.Exec(d.excelCommand(script, t))
	}
	if err == nil {
		return "", nil
	}
	msg := MsgExcelFallback
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 2 {
		msg = MsgNoExcel
	}
	if err := d.defaultApp(t.Path); err != nil {
		return "", err
	}
	return fmt.Sprintf(msg, t.Path), nil
}
