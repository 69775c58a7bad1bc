package bench

import (
	"fmt"
	"html"
	"io"
	"slices"
	"strings"
)

// WriteSVG writes one profile's chart as a standalone SVG a browser opens:
// a group of bars per workload, a bar per strategy, each its cycles over
// the oracle's on that workload (the oracle's bar is 1; without an oracle
// row, over the cheapest strategy's), with the value above each bar. Rows
// of other profiles are ignored.
func WriteSVG(w io.Writer, profile string, rows []Row) error {
	groups := byWorkload(rows, profile)
	var strategies []Strategy
	for _, g := range groups {
		for _, r := range g {
			if !slices.Contains(strategies, r.Strategy) {
				strategies = append(strategies, r.Strategy)
			}
		}
	}
	const (
		left, right, top, bottom = 70, 20, 60, 90
		barW, gap, groupGap      = 26, 6, 28
		plotH                    = 260
	)
	groupW := len(strategies)*(barW+gap) - gap
	width := max(left+right+len(groups)*(groupW+groupGap), 600) // room for the title and the legend
	height := top + plotH + bottom
	ratios := make([][]float64, len(groups))
	top1 := 1.0
	for i, g := range groups {
		base := baseline(g)
		ratios[i] = make([]float64, len(strategies))
		for j, s := range strategies {
			for _, r := range g {
				if r.Strategy == s && base > 0 {
					ratios[i][j] = float64(r.Cycles) / float64(base)
					top1 = max(top1, ratios[i][j])
				}
			}
		}
	}
	// The axis starts at 0.9: the differences worth seeing are a few
	// per cent of a frame.
	lo, hi := 0.9, niceCeil(top1)
	y := func(v float64) float64 { return top + plotH - (v-lo)/(hi-lo)*plotH }
	colours := []string{"#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646"}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="14" font-weight="bold">ebref bench, %s: cycles per frame over the oracle's</text>`+"\n", left, html.EscapeString(profile))
	fmt.Fprintf(&b, `<text x="%d" y="36" fill="#555">%s</text>`+"\n", left, html.EscapeString(Modelled))
	for v := lo; v <= hi+1e-9; v += tick(hi - lo) {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%.2f</text>`+"\n",
			left, width-right, y(v), y(v), left-6, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#000" stroke-dasharray="4 3"/>`+"\n", left, width-right, y(1), y(1))
	for i, g := range groups {
		x0 := left + groupGap/2 + i*(groupW+groupGap)
		for j, s := range strategies {
			v := ratios[i][j]
			if v == 0 {
				continue
			}
			v = max(v, lo) // a bar below the axis's start shows at its foot
			x := x0 + j*(barW+gap)
			fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s, %s: %.3f</title></rect>`+"\n",
				x, y(v), barW, y(lo)-y(v), colours[j%len(colours)], html.EscapeString(g[0].Workload), s, ratios[i][j])
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="middle" font-size="9">%.3f</text>`+"\n", x+barW/2, y(v)-3, ratios[i][j])
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" transform="rotate(-30 %d %d)">%s</text>`+"\n",
			x0+groupW/2, top+plotH+16, x0+groupW/2, top+plotH+16, html.EscapeString(g[0].Workload))
	}
	for j, s := range strategies {
		x := left + j*110
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			x, height-20, colours[j%len(colours)], x+16, height-10, s)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// baseline is a workload's oracle cycles, or the fewest any strategy took.
func baseline(g []*Row) uint64 {
	var least uint64
	for _, r := range g {
		if r.Strategy == Oracle {
			return r.Cycles
		}
		if least == 0 || r.Cycles < least {
			least = r.Cycles
		}
	}
	return least
}

// niceCeil rounds a ratio up to the next 0.05, leaving room for labels.
func niceCeil(v float64) float64 {
	return float64(int((v+0.02)*20)+1) / 20
}

// tick is the spacing of the axis's grid lines.
func tick(span float64) float64 {
	switch {
	case span <= 0.3:
		return 0.05
	case span <= 1:
		return 0.1
	}
	return 0.5
}
