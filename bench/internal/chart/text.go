package chart

import "math"

// Font is the family the charts ask for. Their text is measured with DejaVu
// Sans's metrics (below), the font a Linux renderer falls back to for
// sans-serif; Verdana, next in the list, is as wide.
const Font = "DejaVu Sans, Verdana, sans-serif"

// The advance widths of DejaVu Sans (Book and Bold) for ASCII 32-126, in
// units of 1/2048 em, read from the fonts' hmtx tables; ascent and descent
// from their hhea tables (the same in both).
var (
	advance = [95]uint16{
		651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
		1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087,
		2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
		1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024,
		1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253,
		1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
	}
	advanceBold = [95]uint16{
		713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748,
		1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188,
		2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741,
		1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024,
		1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134, 1458, 1407,
		1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716,
	}
)

const (
	unitsPerEm = 2048
	ascent     = 1901.0 / unitsPerEm
	descent    = 483.0 / unitsPerEm
)

// TextWidth is how wide s sets at size in the charts' font; a character
// outside ASCII counts as 1 em, wider than any in the table.
func TextWidth(s string, size float64, bold bool) float64 {
	table := &advance
	if bold {
		table = &advanceBold
	}
	var units float64
	for _, r := range s {
		if r >= 32 && r < 127 {
			units += float64(table[r-32])
		} else {
			units += unitsPerEm
		}
	}
	return units / unitsPerEm * size
}

// Anchor is SVG's text-anchor: where the text's x lies along it.
type Anchor int

// The anchors, as SVG names them.
const (
	Start Anchor = iota
	Middle
	End
)

// String is the anchor as text-anchor writes it.
func (a Anchor) String() string { return [...]string{"start", "middle", "end"}[a] }

// TextBox is the area a line of text covers, from its ascent to its
// descent, set at (x, y) (y its baseline) with the anchor, before any
// rotation.
func TextBox(s string, x, y, size float64, bold bool, a Anchor) Shape {
	w := TextWidth(s, size, bold)
	x0 := x - w*float64(a)/2
	return Rect(x0, y-ascent*size, x0+w, y+descent*size)
}

// Ascent is how far the font's glyphs reach above the baseline, at size.
func Ascent(size float64) float64 { return ascent * size }

// Descent is how far the font's glyphs reach below the baseline, at size.
func Descent(size float64) float64 { return descent * size }

// Round is v to a tenth of a unit, as the charts write coordinates.
func Round(v float64) float64 { return math.Round(v*10) / 10 }
