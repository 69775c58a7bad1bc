package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ebref/ebref/bench/internal/chart"
)

// WriteSVG writes one profile's chart as a standalone SVG a browser opens:
// a group of bars per workload, a bar per strategy, each its cycles over
// the oracle's on that workload (the oracle's bar is 1, the dashed line),
// with the value above each bar; the value axis is titled with the names
// the table gives those ratios (legacy/oracle, ...) and, where it does not
// start at zero, drawn with a break. Without an oracle run on every
// workload the bars are the strategies' cycles. Rows of other profiles are
// ignored.
func WriteSVG(w io.Writer, profile string, rows []Row) error {
	c := layoutChart(profile, rows)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="%s" font-size="%g">`+"\n",
		c.width, c.height, c.width, c.height, chart.Font, fontSize)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for _, m := range c.marks {
		b.WriteString(m.svg)
		b.WriteByte('\n')
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// The chart's type sizes and its bars' dimensions, in SVG units.
const (
	fontSize, labelSize, titleSize = 11.0, 9.0, 14.0
	margin                         = 10 // around everything
	minBarW, barGap, groupGap      = 26, 6, 28
	plotH                          = 260 // from the axis's lowest tick to its highest
	tickLen                        = 4
	nameAngle                      = -30 // the workloads' names, rising to the right
	breakH                         = 18  // the axis below its lowest tick, where a broken axis shows its break
)

// strategyColours are the bars' fills, from Okabe and Ito's palette, which
// readers with every common colour-vision deficiency tell apart.
var strategyColours = map[Strategy]string{Legacy: "#d55e00", Enhanced: "#0072b2", Oracle: "#009e73", Translator: "#cc79a7"}

var otherColours = []string{"#e69f00", "#56b4e9", "#f0e442", "#000000"}

// mark is one thing the chart draws: its SVG and the area it covers.
type mark struct {
	what string      // what it is, for a test's message
	svg  string      // the element
	area chart.Shape // what it covers; nil for the background
	// text is a label, a title or a name: nothing else may overlap it.
	text bool
}

// bar is one bar's value, as the chart shows it.
type bar struct {
	workload string
	strategy Strategy
	value    float64
	label    string
}

// svgChart is a chart laid out: its size, its marks in drawing order, its
// bars' values and its value axis's title.
type svgChart struct {
	width, height float64
	marks         []mark
	bars          []bar
	axisTitle     string
	scale         chart.Scale
}

// layoutChart lays out one profile's chart. Every position is computed
// here, and every mark carries the area it covers, so a test can prove that
// nothing overlaps a label.
func layoutChart(profile string, rows []Row) svgChart {
	groups := byWorkload(compiled(rows), profile) // the samples' own forms are the table's (writeSamples)
	var strategies []Strategy
	ratio := len(groups) > 0
	for _, g := range groups {
		has := false
		for _, r := range g {
			if !slices.Contains(strategies, r.Strategy) {
				strategies = append(strategies, r.Strategy)
			}
			has = has || r.Strategy == Oracle && r.Cycles > 0
		}
		ratio = ratio && has
	}
	// An oracle alone is 1 everywhere: its cycles say more.
	ratio = ratio && slices.ContainsFunc(strategies, func(s Strategy) bool { return s != Oracle })
	// The values: each strategy's cycles over the oracle's, or its cycles.
	values := make([][]float64, len(groups))
	least, most := math.Inf(1), 0.0
	for i, g := range groups {
		base := 1.0
		if ratio {
			for _, r := range g {
				if r.Strategy == Oracle {
					base = float64(r.Cycles)
				}
			}
		}
		values[i] = make([]float64, len(strategies))
		for _, r := range g {
			if r.Cycles == 0 {
				continue
			}
			v := float64(r.Cycles) / base
			values[i][slices.Index(strategies, r.Strategy)] = v
			least, most = min(least, v), max(most, v)
		}
	}
	if ratio {
		least, most = min(least, 1), max(most, 1)
	}
	if most == 0 {
		least = 0
	}
	c := svgChart{scale: chart.NewScale(least, most), axisTitle: "cycles"}
	value, tickText := ratioText, func(v float64) string { return fmt.Sprintf("%.*f", c.scale.Decimals(), v) }
	title := fmt.Sprintf("ebref bench, %s: cycles per frame", profile)
	if ratio {
		var names []string
		for _, s := range strategies {
			if s != Oracle {
				names = append(names, OverOracle(s))
			}
		}
		c.axisTitle = strings.Join(names, ", ") + " (the oracle = 1)"
		title += " over the oracle's"
	} else {
		value, tickText = cyclesText, cyclesTick(c.scale)
	}

	// Across: the bars as wide as their widest label.
	barW := float64(minBarW)
	for i := range groups {
		for j := range strategies {
			if v := values[i][j]; v > 0 {
				barW = max(barW, math.Ceil(chart.TextWidth(value(v), labelSize, false)))
			}
		}
	}
	groupW := float64(len(strategies))*(barW+barGap) - barGap
	pitch := groupW + groupGap
	ticks := c.scale.Ticks()
	tickW := 0.0
	for _, v := range ticks {
		tickW = max(tickW, chart.TextWidth(tickText(v), fontSize, false))
	}
	if c.scale.Broken() {
		tickW = max(tickW, chart.TextWidth("0", fontSize, false))
	}
	left := margin + math.Ceil(tickW) + 3 + tickLen
	// A workload's name, rotated, reaches left of its group's middle; the
	// first ones may need the axis further right.
	nameY := 14.0 // below the axis
	nameShape := func(name string, x, y float64) chart.Shape {
		return chart.TextBox(name, x, y, fontSize, false, chart.End).Rotate(nameAngle, chart.Point{X: x, Y: y})
	}
	nameDepth, shift := 0.0, 0.0
	for i, g := range groups {
		mid := left + groupGap/2 + float64(i)*pitch + groupW/2
		x0, _, _, y1 := nameShape(shortName(g[0].Workload), mid, nameY).Bounds()
		shift, nameDepth = max(shift, margin-x0), max(nameDepth, y1)
	}
	left += math.Ceil(shift)
	plotRight := left + float64(len(groups))*pitch
	width := plotRight + margin

	// Down: the title, the note, the axis's title, room for the labels
	// of the tallest bars, the plot, the names, the legend.
	titleY := margin + chart.Ascent(titleSize)
	noteY := titleY + chart.Descent(titleSize) + 4 + chart.Ascent(fontSize)
	axisTitleY := noteY + chart.Descent(fontSize) + 8 + chart.Ascent(fontSize)
	top := math.Ceil(axisTitleY + chart.Descent(fontSize) + 4 + chart.Ascent(labelSize) + chart.Descent(labelSize) + 6)
	y := func(v float64) float64 {
		return chart.Round(top + plotH - (v-c.scale.Lo)/(c.scale.Hi-c.scale.Lo)*plotH)
	}
	floor := y(c.scale.Lo)
	if c.scale.Broken() {
		floor += breakH
	}
	legendY := math.Ceil(floor + nameDepth + 12)
	c.height = legendY + 12 + margin
	for _, s := range strategies {
		width = max(width, left+chart.TextWidth(string(s), fontSize, false)+30)
	}
	// The axis's title starts where its ticks' values do.
	axisTitleX := max(margin, left-tickLen-3-math.Ceil(tickW))
	titleW := max(chart.TextWidth(title, titleSize, true), chart.TextWidth(Modelled, fontSize, false),
		axisTitleX-margin+chart.TextWidth(c.axisTitle, fontSize, false))
	legendW := 0.0
	for _, s := range strategies {
		legendW += 12 + 4 + chart.TextWidth(string(s), fontSize, false) + 18
	}
	c.width = math.Ceil(max(width, margin+titleW+margin, left+legendW+margin))

	add := func(m mark) { c.marks = append(c.marks, m) }
	text := func(what, s string, x, y, size float64, bold bool, a chart.Anchor, attrs string) {
		weight := ""
		if bold {
			weight = ` font-weight="bold"`
		}
		add(mark{what: what, text: true, area: chart.TextBox(s, x, y, size, bold, a),
			svg: fmt.Sprintf(`<text x="%g" y="%g" font-size="%g"%s text-anchor="%s"%s>%s</text>`, x, y, size, weight, a, attrs, html.EscapeString(s))})
	}
	line := func(what string, x1, y1, x2, y2 float64, attrs string) {
		add(mark{what: what, area: chart.Segment(chart.Point{X: x1, Y: y1}, chart.Point{X: x2, Y: y2}, 1),
			svg: fmt.Sprintf(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#000"%s/>`, x1, y1, x2, y2, attrs)})
	}

	text("the title", title, margin, chart.Round(titleY), titleSize, true, chart.Start, "")
	text("the note", Modelled, margin, chart.Round(noteY), fontSize, false, chart.Start, ` fill="#555"`)
	text("the axis's title", c.axisTitle, axisTitleX, chart.Round(axisTitleY), fontSize, false, chart.Start, "")

	// The value axis: a tick and its value at each step; where it does
	// not start at zero, its foot is 0 and a break lies between.
	if c.scale.Broken() {
		mid := y(c.scale.Lo) + breakH/2
		line("the value axis", left, mid-3, left, y(c.scale.Hi), "")
		line("the value axis's foot", left, floor, left, mid+3, "")
	} else {
		line("the value axis", left, floor, left, y(c.scale.Hi), "")
	}
	for _, v := range ticks {
		line("a tick", left-tickLen, y(v), left, y(v), "")
		text("a tick's value", tickText(v), left-tickLen-3, chart.Round(y(v)+chart.Ascent(fontSize)*0.37), fontSize, false, chart.End, "")
	}
	if c.scale.Broken() {
		line("the tick of 0", left-tickLen, floor, left, floor, "")
		text("the value 0", "0", left-tickLen-3, chart.Round(floor+chart.Ascent(fontSize)*0.37), fontSize, false, chart.End, "")
	}
	line("the workloads' axis", left, floor, plotRight, floor, "")

	// The bars, each with its value above it, or above the dashed line
	// of 1 where it stands just under it; bars that do not start at zero
	// are cut where the axis breaks.
	type pending struct {
		x, top float64
		s      string
		what   string
	}
	var labels []pending
	for i, g := range groups {
		x0 := left + groupGap/2 + float64(i)*pitch
		for j, s := range strategies {
			v := values[i][j]
			if v == 0 {
				continue
			}
			x := x0 + float64(j)*(barW+barGap)
			top := y(v)
			what := fmt.Sprintf("%s, %s", g[0].Workload, s)
			c.bars = append(c.bars, bar{g[0].Workload, s, v, value(v)})
			add(mark{what: "the bar of " + what, area: chart.Rect(x, top, x+barW, floor),
				svg: fmt.Sprintf(`<rect x="%g" y="%g" width="%g" height="%g" fill="%s"><title>%s: %s</title></rect>`,
					x, top, barW, chart.Round(floor-top), colour(s, j), html.EscapeString(what), value(v))})
			labels = append(labels, pending{x + barW/2, top, value(v), "the value of " + what})
		}
		mid := x0 + groupW/2
		name, whole := shortName(g[0].Workload), ""
		if name != g[0].Workload {
			whole = "<title>" + html.EscapeString(g[0].Workload) + "</title>"
		}
		add(mark{what: "the name " + g[0].Workload, text: true, area: nameShape(name, mid, floor+nameY),
			svg: fmt.Sprintf(`<text x="%g" y="%g" text-anchor="end" transform="rotate(%d %g %g)">%s%s</text>`,
				mid, floor+nameY, nameAngle, mid, floor+nameY, whole, html.EscapeString(name))})
	}
	if c.scale.Broken() {
		// A white zigzag across the axis and every bar: the values
		// between 0 and the lowest tick are left out.
		mid := y(c.scale.Lo) + breakH/2
		var pts []string
		for x, k := left+1, 0; x <= plotRight+1e-9; x, k = x+6, k+1 {
			pts = append(pts, fmt.Sprintf("%g,%g", x, mid+float64(k%2*2-1)*3))
		}
		add(mark{what: "the break", area: chart.Rect(left+1-3, mid-3-3, plotRight+6, mid+3+3),
			svg: fmt.Sprintf(`<polyline points="%s" fill="none" stroke="white" stroke-width="5"/>`, strings.Join(pts, " "))})
		for _, d := range []float64{-3, 3} {
			line("a stroke of the break", left-6, mid+d+3, left+6, mid+d-3, "")
		}
	}
	if ratio {
		line("the line of 1", left, y(1), plotRight, y(1), ` stroke-dasharray="4 3"`)
	}
	for _, l := range labels {
		// Above the bar; else above the line of 1; else higher, until
		// nothing is there.
		place := func(base float64) chart.Shape {
			return chart.TextBox(l.s, l.x, base, labelSize, false, chart.Middle)
		}
		base := chart.Round(l.top - 4)
		for _, try := range []float64{base, chart.Round(y(1) - 4)} {
			base = try
			if !c.collides(place(base)) {
				break
			}
		}
		for c.collides(place(base)) && base > 0 {
			base--
		}
		add(mark{what: l.what, text: true, area: place(base),
			svg: fmt.Sprintf(`<text x="%g" y="%g" font-size="%g" text-anchor="middle">%s</text>`, l.x, base, labelSize, l.s)})
	}

	// The legend, under the names.
	x := left
	for j, s := range strategies {
		add(mark{what: "the legend's swatch of " + string(s), area: chart.Rect(x, legendY, x+12, legendY+12),
			svg: fmt.Sprintf(`<rect x="%g" y="%g" width="12" height="12" fill="%s"/>`, x, legendY, colour(s, j))})
		text("the legend's "+string(s), string(s), x+16, legendY+10, fontSize, false, chart.Start, "")
		x += 12 + 4 + math.Ceil(chart.TextWidth(string(s), fontSize, false)) + 18
	}
	return c
}

// collides says whether an area overlaps any mark laid out so far.
func (c *svgChart) collides(a chart.Shape) bool {
	for _, m := range c.marks {
		if chart.Overlap(a, m.area) {
			return true
		}
	}
	return false
}

func colour(s Strategy, j int) string {
	if c, ok := strategyColours[s]; ok {
		return c
	}
	return otherColours[j%len(otherColours)]
}

// ratioText writes a ratio as the table does, to three places, and in five
// characters or fewer where it is large (a label fits its bar).
func ratioText(v float64) string {
	switch {
	case v < 9.9995:
		return fmt.Sprintf("%.3f", v)
	case v < 99.995:
		return fmt.Sprintf("%.2f", v)
	case v < 999.95:
		return fmt.Sprintf("%.1f", v)
	case v < 99999.5:
		return fmt.Sprintf("%.0f", v)
	}
	e := int(math.Floor(math.Log10(v)))
	m := v / math.Pow(10, float64(e))
	if math.Round(m*10)/10 >= 10 {
		m, e = m/10, e+1
	}
	return fmt.Sprintf("%.1fe%d", m, e)
}

// maxName is the most characters of a workload's name the chart shows;
// a longer one ends in an ellipsis, whole in its tooltip.
const maxName = 32

func shortName(s string) string {
	r := []rune(s)
	if len(r) <= maxName {
		return s
	}
	return string(r[:maxName-1]) + "…"
}

// cyclesTick writes an axis's ticks of cycles with one SI prefix, the
// greatest's, and the decimals the step needs: 0, 5M, 10M.
func cyclesTick(s chart.Scale) func(float64) string {
	div, suffix := 1.0, ""
	for _, p := range []struct {
		div    float64
		suffix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if s.Hi >= p.div {
			div, suffix = p.div, p.suffix
			break
		}
	}
	decimals := chart.Scale{Step: s.Step / div}.Decimals()
	return func(v float64) string {
		if v == 0 {
			return "0"
		}
		return fmt.Sprintf("%.*f%s", decimals, v/div, suffix)
	}
}

// cyclesText writes a count of cycles to three significant figures with an
// SI prefix: 8.81M, 950k, 1.00G.
func cyclesText(v float64) string {
	for _, p := range []struct {
		div    float64
		suffix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}} {
		if d := v / p.div; d >= 0.9995 || p.div == 1 {
			if d < 9.995 && v >= 1e3 {
				return fmt.Sprintf("%.2f%s", d, p.suffix)
			}
			if d < 99.95 && v >= 1e3 {
				return fmt.Sprintf("%.1f%s", d, p.suffix)
			}
			return fmt.Sprintf("%.0f%s", d, p.suffix)
		}
	}
	return ""
}
