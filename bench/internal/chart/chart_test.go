package chart

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOverlap(t *testing.T) {
	a := Rect(0, 0, 10, 10)
	for _, c := range []struct {
		name string
		b    Shape
		want bool
	}{
		{"inside", Rect(2, 2, 4, 4), true},
		{"across a corner", Rect(8, 8, 12, 12), true},
		{"edge to edge", Rect(10, 0, 20, 10), false},
		{"apart", Rect(11, 0, 20, 10), false},
		{"a line through", Segment(Point{-5, 5}, Point{15, 5}, 1), true},
		{"a line just above", Segment(Point{-5, -0.6}, Point{15, -0.6}, 1), false},
		{"a diagonal line past the corner", Segment(Point{9, -3}, Point{13, 1}, 1), false},
		{"a diagonal line over the corner", Segment(Point{7, -3}, Point{13, 3}, 1), true},
		{"rotated, beside", Rect(12, 0, 22, 4).Rotate(-30, Point{12, 4}), false},
		{"rotated, into", Rect(-20, 6, 5, 10).Rotate(-30, Point{5, 10}), true},
		{"empty", nil, false},
	} {
		assert.Equal(t, c.want, Overlap(a, c.b), c.name)
		assert.Equal(t, c.want, Overlap(c.b, a), c.name+", the other way")
	}
}

func TestRotate(t *testing.T) {
	r := Rect(0, 0, 10, 0).Rotate(90, Point{0, 0}) // clockwise on screen: x to y
	assert.InDelta(t, 0, r[1].X, 1e-9)
	assert.InDelta(t, 10, r[1].Y, 1e-9)
}

// Widths are DejaVu Sans's: digits 0.636 em, a full stop 0.318 em.
func TestTextWidth(t *testing.T) {
	assert.InDelta(t, (4*1303+651)/2048.0*9, TextWidth("1.000", 9, false), 1e-9)
	assert.Greater(t, TextWidth("W", 11, true), TextWidth("W", 11, false))
	assert.Equal(t, 11.0, TextWidth("ケ", 11, false), "beyond ASCII, 1 em")
	b := TextBox("ab", 100, 50, 10, false, End)
	x0, y0, x1, y1 := b.Bounds()
	assert.InDelta(t, 100, x1, 1e-9)
	assert.InDelta(t, 100-TextWidth("ab", 10, false), x0, 1e-9)
	assert.Less(t, y0, 50.0)
	assert.Greater(t, y1, 50.0)
}

// An axis starts at zero where its values differ by half the greatest or
// more, and otherwise at a tick below the least; it always covers the
// values, in five or six steps.
func TestNewScale(t *testing.T) {
	for _, c := range []struct {
		least, most float64
		broken      bool
	}{
		{1, 1, true}, {1, 1.0001, true}, {0.987, 1.445, true}, {1, 1.9, true},
		{1, 2, false}, {0.2, 1, false}, {1, 1e6, false}, {1.7e6, 18.7e6, false},
	} {
		s := NewScale(c.least, c.most)
		assert.Equal(t, c.broken, s.Broken(), "%v: %+v", c, s)
		assert.Less(t, s.Lo, c.least, "%v: %+v", c, s)
		assert.GreaterOrEqual(t, s.Hi, c.most, "%v: %+v", c, s)
		n := len(s.Ticks())
		assert.True(t, n >= 2 && n <= 8, "%v: %d ticks %v", c, n, s.Ticks())
		assert.InDelta(t, s.Lo, s.Ticks()[0], 1e-9)
		assert.InDelta(t, s.Hi, s.Ticks()[n-1], 1e-9)
		if s.Broken() {
			assert.Greater(t, (c.least-s.Lo)/(s.Hi-s.Lo), 0.05, "%v: the least bar keeps a foot: %+v", c, s)
		}
	}
	assert.Equal(t, 2, Scale{Step: 0.01}.Decimals())
	assert.Equal(t, 1, Scale{Step: 0.2}.Decimals())
	assert.Equal(t, 0, Scale{Step: 5}.Decimals())
	assert.False(t, math.IsNaN(NewScale(0, 0).Hi))
}
