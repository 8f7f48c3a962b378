package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// printTable prints every size of the results file side by side, one
// figure per row, so that growth is read across a row; the targets of
// issue 21 close each row where one applies.
func printTable(w io.Writer, all map[string]Result) {
	keys := sizeOrder(all)
	if len(keys) == 0 {
		fmt.Fprintln(w, "no results yet")
		return
	}
	row := func(name, target string, f func(Result) string) {
		fmt.Fprintf(w, "%-34s", name)
		for _, k := range keys {
			fmt.Fprintf(w, " %16s", f(all[k]))
		}
		if target != "" {
			fmt.Fprintf(w, "   target %s", target)
		}
		fmt.Fprintln(w)
	}
	row("", "", func(r Result) string { return r.Size })
	row("measured (UTC)", "", func(r Result) string { return strings.TrimSuffix(r.When, "Z")[5:16] })
	row("partial", "", func(r Result) string {
		if r.Partial == "" {
			return "-"
		}
		return "yes (see below)"
	})
	row("files / folders", "", func(r Result) string { return fmt.Sprintf("%d/%d", r.Files, r.Folders) })
	row("text MB", "", func(r Result) string { return fmt.Sprintf("%.0f", float64(r.TextBytes)/1e6) })
	phaseRows(row)
	row("index MB (× text)", "≤ 1.5×", func(r Result) string {
		return fmt.Sprintf("%.0f (%.2f×)", r.IndexMB, r.IndexMB*1e6/float64(max(r.TextBytes, 1)))
	})
	row("summary MB", "", func(r Result) string { return fmt.Sprintf("%.2f", r.SummaryMB) })
	row("work/ MB", "", func(r Result) string { return fmt.Sprintf("%.0f", r.WorkMB) })
	webRows(row)
	defer func() {
		for _, k := range keys {
			if p := all[k].Partial; p != "" {
				fmt.Fprintf(w, "%s: %s\n", k, p)
			}
		}
	}()
	names := []string{}
	for _, k := range keys {
		for _, q := range all[k].Queries {
			if !contains(names, q.Name) {
				names = append(names, q.Name)
			}
		}
	}
	for _, n := range names {
		q := func(r Result) (QueryResult, bool) {
			for _, x := range r.Queries {
				if x.Name == n {
					return x, true
				}
			}
			return QueryResult{}, false
		}
		show := func(f func(QueryResult) string) func(Result) string {
			return func(r Result) string {
				x, ok := q(r)
				if !ok {
					return "-"
				}
				return f(x)
			}
		}
		target := ""
		if strings.HasPrefix(n, "rare") || n == "absent" {
			target = "≤ 15 ms, ≥ 50× rg at 10 GB"
		} else if strings.Contains(n, "char") {
			target = "≤ 150 ms"
		}
		row(n+": warm", target, show(func(x QueryResult) string { return ms(x.Warm.Wall) + fmt.Sprintf(" %dh", x.Hits) }))
		row("  warm CPU / read", "", show(func(x QueryResult) string { return ms(x.Warm.CPU) + " " + mbs(x.Warm.ReadMB) }))
		coldTarget := ""
		if target != "" && !strings.Contains(n, "char") {
			coldTarget = "≤ 100 ms, ≤ 8 MB at 1 GB; ≤ 300 ms at 10 GB"
		}
		row("  cold / read", coldTarget, show(func(x QueryResult) string {
			if x.ColdDisabled != "" {
				return "-"
			}
			return ms(x.Cold.Wall) + " " + mbs(x.Cold.ReadMB)
		}))
		row("  cold CPU", "", show(func(x QueryResult) string {
			if x.ColdDisabled != "" {
				return "-"
			}
			return ms(x.Cold.CPU)
		}))
		row("  rg warm (rg/fb)", "", show(func(x QueryResult) string {
			if x.RgWarm.Wall == 0 {
				return "-"
			}
			return fmt.Sprintf("%s %.0f×", ms(x.RgWarm.Wall), ratio(x.RgWarm.Wall, x.Warm.Wall))
		}))
		row("  rg cold", "", show(func(x QueryResult) string {
			if x.RgCold == nil {
				return "-"
			}
			return fmt.Sprintf("%s %s", ms(x.RgCold.Wall), mbs(x.RgCold.ReadMB))
		}))
	}
}

// rowFunc prints one row of the table: a figure of every size.
type rowFunc func(name, target string, f func(Result) string)

// phaseRows are the rows of the index phases and of Recoll's build.
func phaseRows(row rowFunc) {
	for _, p := range []string{phaseBuild, phaseUnchanged, phaseChanged} {
		target := map[string]string{phaseBuild: "≤ 15 min at 10 GB", phaseUnchanged: "≤ 10 s", phaseChanged: "≤ 1 min"}[p]
		row(p+" wall", target, func(r Result) string { return phaseWall(r, p) })
		row(p+" CPU", "", func(r Result) string { return phaseCPU(r, p) })
		row(p+" coordinator RSS", "≤ 500 MB", func(r Result) string { return phaseMB(r, p, false) })
		row(p+" worker RSS", "", func(r Result) string { return phaseMB(r, p, true) })
		row(p+" load", "", func(r Result) string { return phaseLoad(r, p) })
	}
	row("recoll build wall", "", func(r Result) string { return phaseWall(r, phaseRecoll) })
	row("recoll build CPU", "", func(r Result) string { return phaseCPU(r, phaseRecoll) })
	row("recoll build load", "", func(r Result) string { return phaseLoad(r, phaseRecoll) })
	row("recoll/fumibako build (wall)", "≥ 8×", func(r Result) string {
		rc, ok1 := r.Phases[phaseRecoll]
		fb, ok2 := r.Phases[phaseBuild]
		if !ok1 || !ok2 {
			return "-"
		}
		return fmt.Sprintf("%.1f×", ratio(rc.Wall, fb.Wall))
	})
	row("recoll/fumibako build (CPU)", "", func(r Result) string {
		rc, ok1 := r.Phases[phaseRecoll]
		fb, ok2 := r.Phases[phaseBuild]
		if !ok1 || !ok2 {
			return "-"
		}
		return fmt.Sprintf("%.1f×", ratio(rc.CPU, fb.CPU))
	})
}

// webRows are the rows of the web phase (keystroke to first hit).
func webRows(row rowFunc) {
	web := func(f func(w *WebResult) string) func(Result) string {
		return func(r Result) string {
			if r.Web == nil {
				return "-"
			}
			return f(r.Web)
		}
	}
	row("web keystroke p50 / p90", "p90 ≤ 100 ms at 1 GB", web(func(w *WebResult) string { return ms(w.P50) + " " + ms(w.P90) }))
	row("  max", "", web(func(w *WebResult) string { return ms(w.Max) }))
	row("  timed / typed (missed)", "", web(func(w *WebResult) string {
		return fmt.Sprintf("%d/%d (%d)", w.Timed, w.Keystrokes, w.Missed)
	}))
	row("  measured (UTC), load", "", web(func(w *WebResult) string {
		return strings.TrimSuffix(w.When, "Z")[5:16] + " " + w.Load
	}))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func phaseWall(r Result, p string) string {
	if x, ok := r.Phases[p]; ok {
		return dur(x.Wall)
	}
	return "-"
}

func phaseCPU(r Result, p string) string {
	if x, ok := r.Phases[p]; ok {
		return dur(x.CPU)
	}
	return "-"
}

func phaseMB(r Result, p string, worker bool) string {
	x, ok := r.Phases[p]
	if !ok {
		return "-"
	}
	if worker {
		return fmt.Sprintf("%.0f MB", x.WorkerMB)
	}
	return fmt.Sprintf("%.0f MB", x.CoordMB)
}

func phaseLoad(r Result, p string) string {
	if x, ok := r.Phases[p]; ok {
		return x.Load
	}
	return "-"
}

func dur(d time.Duration) string {
	if d >= time.Minute {
		return fmt.Sprintf("%dm%04.1fs", int(d.Minutes()), d.Seconds()-60*float64(int(d.Minutes())))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func ms(d time.Duration) string {
	if d >= 10*time.Second {
		return dur(d)
	}
	return fmt.Sprintf("%.1fms", float64(d)/1e6)
}

func mbs(x float64) string { return fmt.Sprintf("%.2fMB", x) }
