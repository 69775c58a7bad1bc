package chart

import "math"

// Scale is a value axis: it runs from Lo to Hi with a tick every Step.
// Lo is 0 or, where the values differ by too little for bars from zero to
// show it, a tick below the least of them; the axis then has a break.
type Scale struct {
	Lo, Hi, Step float64
}

// Broken says the axis does not start at zero.
func (s Scale) Broken() bool { return s.Lo > 0 }

// Ticks are the values a tick marks, Lo to Hi.
func (s Scale) Ticks() []float64 {
	var out []float64
	first, last := math.Round(s.Lo/s.Step), math.Round(s.Hi/s.Step)
	for k := first; k <= last; k++ {
		out = append(out, k*s.Step)
	}
	return out
}

// Decimals is how many decimal places tell the ticks apart.
func (s Scale) Decimals() int {
	return max(0, int(math.Ceil(-math.Log10(s.Step)-1e-9)))
}

// NewScale fits an axis to positive values, about five ticks long. From
// zero when the least value is at most half the greatest (a bar's length
// then shows the differences); otherwise from a tick below the least, by a
// quarter of the spread of the values, or of a tenth of the greatest where
// they spread less (so that equal or nearly equal values do not fill the
// chart): the bars keep a foot and the differences show, beside a break.
func NewScale(least, most float64) Scale {
	if most <= 0 {
		return Scale{0, 1, 0.2}
	}
	if least <= most/2 {
		step := niceStep(most / 5)
		return Scale{0, math.Ceil(most/step-1e-9) * step, step}
	}
	d := max(most-least, most/10)
	lo0, hi0 := least-d/4, most+d/20
	step := niceStep((hi0 - lo0) / 5)
	lo, hi := math.Floor(lo0/step+1e-9)*step, math.Ceil(hi0/step-1e-9)*step
	if lo <= 0 {
		return Scale{0, hi, step}
	}
	return Scale{lo, hi, step}
}

// niceStep is the least of 1, 2 and 5 times a power of ten at least raw.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}
