// Package chart is the geometry bench's SVG charts are laid out with: the
// area each mark covers as a convex polygon, whether two areas overlap,
// the box a line of text covers in the charts' font, and an axis's scale
// and ticks.
//
// This package imports nothing of ebref: it is geometry, not barriers.
package chart

import "math"

// Point is a position in the SVG's user units, y growing downwards.
type Point struct{ X, Y float64 }

// Shape is the area a mark covers: a convex polygon, its corners in order
// (either way round).
type Shape []Point

// Rect is the axis-aligned rectangle from (x0, y0) to (x1, y1).
func Rect(x0, y0, x1, y1 float64) Shape {
	return Shape{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

// Segment is the area a straight line of the given stroke width covers
// from a to b (its square caps included, half the width past each end).
func Segment(a, b Point, width float64) Shape {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		h := width / 2
		return Rect(a.X-h, a.Y-h, a.X+h, a.Y+h)
	}
	ux, uy := dx/n*width/2, dy/n*width/2 // along the line, half the width
	nx, ny := -uy, ux                    // across it
	return Shape{{a.X - ux + nx, a.Y - uy + ny}, {b.X + ux + nx, b.Y + uy + ny}, {b.X + ux - nx, b.Y + uy - ny}, {a.X - ux - nx, a.Y - uy - ny}}
}

// Rotate turns s by deg degrees about c, as SVG's rotate(deg cx cy) does
// (a positive angle turns clockwise on the screen).
func (s Shape) Rotate(deg float64, c Point) Shape {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	out := make(Shape, len(s))
	for i, p := range s {
		x, y := p.X-c.X, p.Y-c.Y
		out[i] = Point{c.X + x*cos - y*sin, c.Y + x*sin + y*cos}
	}
	return out
}

// Bounds is the smallest axis-aligned rectangle around s.
func (s Shape) Bounds() (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range s {
		x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
	}
	return x0, y0, x1, y1
}

// Overlap says whether two convex shapes share more than an edge: by the
// separating axis theorem, they overlap unless some edge's normal
// separates their projections (touching counts as apart).
func Overlap(a, b Shape) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, s := range []Shape{a, b} {
		for i := range s {
			p, q := s[i], s[(i+1)%len(s)]
			nx, ny := q.Y-p.Y, p.X-q.X
			if nx == 0 && ny == 0 {
				continue
			}
			amin, amax := project(a, nx, ny)
			bmin, bmax := project(b, nx, ny)
			if amax <= bmin+eps || bmax <= amin+eps {
				return false
			}
		}
	}
	return true
}

// eps absorbs rounding: shapes that meet edge to edge do not overlap.
const eps = 1e-6

func project(s Shape, nx, ny float64) (lo, hi float64) {
	n := math.Hypot(nx, ny)
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range s {
		d := (p.X*nx + p.Y*ny) / n
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}
