package bench

import (
	"fmt"
	"io"
	"strings"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
)

// The ratios against the bound and the best program, and the modelling
// choices that drive them (docs/bench.md "What drives the ratios").

// boundRatio is a strategy's cycles over the bound, "-" without either.
func boundRatio(g []*Row, s Strategy) string {
	for _, r := range g {
		if r.Strategy == s && r.BoundCycles > 0 && r.Cycles > 0 {
			return fmt.Sprintf("%.3f", float64(r.Cycles)/float64(r.BoundCycles))
		}
	}
	return "-"
}

// boundOf is a workload's bound, "-" where none was computed.
func boundOf(g []*Row) string {
	for _, r := range g {
		if r.BoundCycles > 0 {
			return fmt.Sprint(r.BoundCycles)
		}
	}
	return "-"
}

// strategyRow is a group's row of strategy s, nil if it did not run.
func strategyRow(g []*Row, s Strategy) *Row {
	for _, r := range g {
		if r.Strategy == s {
			return r
		}
	}
	return nil
}

// withoutDecompression is legacy's cycles over enhanced's with each one's
// synchronous decompression (and metadata) cycles taken out, and the share
// of legacy's extra cycles those are; "-" where either did not run or
// legacy costs no more.
func withoutDecompression(g []*Row) (ratio, share string) {
	l, e := strategyRow(g, Legacy), strategyRow(g, Enhanced)
	if l == nil || e == nil || e.Cycles <= e.DecompressCycles {
		return "-", "-"
	}
	ratio = fmt.Sprintf("%.3f", float64(l.Cycles-l.DecompressCycles)/float64(e.Cycles-e.DecompressCycles))
	share = "-"
	if l.Cycles > e.Cycles {
		extra := float64(l.Cycles - e.Cycles)
		d := float64(l.DecompressCycles) - float64(e.DecompressCycles)
		share = fmt.Sprintf("%.0f %%", 100*d/extra)
	}
	return ratio, share
}

// Assumptions are the profile's modelling choices that drive a profile's
// ratios, most weighty first, with what they come to in rows (of that
// profile): every report says them.
func Assumptions(rows []Row, profile string) []string {
	prof, err := hwmodel.LookupProfile(profile)
	if err != nil {
		return []string{fmt.Sprintf("profile %s: not a built-in profile; its assumptions are its file's", profile)}
	}
	var legacyExtra, decomp, total, endCache float64
	for _, g := range byWorkload(rows, profile) {
		l, e := strategyRow(g, Legacy), strategyRow(g, Enhanced)
		if l != nil && e != nil && l.Cycles > e.Cycles {
			legacyExtra += float64(l.Cycles - e.Cycles)
			decomp += float64(l.DecompressCycles) - float64(e.DecompressCycles)
		}
		if e != nil {
			total += float64(e.Cycles)
			endCache += float64(e.CacheCycles)
		}
	}
	compresses := prof.Compresses.RenderTarget || prof.Compresses.DepthStencil
	var blind []string // the other queues' readers that do not decode
	if !prof.Aware[hwmodel.EngineCompute][cmdbuf.ClientShaderLoad] {
		blind = append(blind, "compute shader loads")
	}
	if !prof.Aware[hwmodel.EngineCopy][cmdbuf.ClientCopy] {
		blind = append(blind, "the copy engine")
	}
	var out []string
	switch {
	case compresses && decomp > 0:
		who := "other queues' readers"
		if len(blind) > 0 {
			who = strings.Join(blind, " and ")
		}
		s := fmt.Sprintf("legacy's read and hand-over states are layouts other types of queue may use, and here %s cannot decode compression: legacy decompresses the render and depth targets it samples, copies or hands over", who)
		if legacyExtra > 0 {
			s += fmt.Sprintf(" (%.0f %% of legacy's extra cycles over enhanced on this profile)", 100*decomp/legacyExtra)
		}
		out = append(out, s)
	case compresses:
		out = append(out, "targets stay compressed in legacy's states too: no decompression separates the forms in these workloads")
	default:
		out = append(out, "nothing is compressed here: the forms differ only in waits and cache work")
	}
	if total > 0 {
		out = append(out, fmt.Sprintf("a cache line written back costs %d cycles, on the command processor unless a program issues the write-back asynchronously: synchronous CACHE packets and the ends of submissions (which write back everything left dirty) come to %.0f %% of enhanced's cycles",
			prof.Costs.FlushPerLine, 100*endCache/total))
	}
	out = append(out, "the costs are illustrative ratios (docs/hardware.md \"Cost model\"), not a vendor's")
	return out
}

// WriteRatios writes, per profile, legacy's cycles over enhanced's with
// and without the decompression share, and enhanced's against the best
// program found and the bound: docs/bench.md's table.
func WriteRatios(w io.Writer, rows []Row) error {
	var b strings.Builder
	for _, p := range profilesOf(rows) {
		fmt.Fprintf(&b, "\n`%s`:\n\n| workload | legacy/enhanced | without decompression | decompression's share of legacy's extra | enhanced/best | enhanced/bound | best/bound |\n|---|---|---|---|---|---|---|\n", p)
		for _, g := range byWorkload(rows, p) {
			wr, share := withoutDecompression(g)
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", g[0].Workload, ratio(g, Legacy, Enhanced), wr, share,
				ratio(g, Enhanced, Best), boundRatio(g, Enhanced), boundRatio(g, Best))
		}
		b.WriteString("\nWhat drives them:\n\n")
		for _, a := range Assumptions(rows, p) {
			fmt.Fprintf(&b, "- %s.\n", a)
		}
	}
	_, err := io.WriteString(w, strings.TrimPrefix(b.String(), "\n"))
	return err
}

// profilesOf is the profiles of rows, in the order they come.
func profilesOf(rows []Row) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Profile] {
			seen[r.Profile] = true
			out = append(out, r.Profile)
		}
	}
	return out
}
