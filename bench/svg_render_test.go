package bench

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/bench/internal/chart"
	"github.com/ebref/ebref/hwmodel"
)

var chartsDir = flag.String("charts", "", "keep the charts TestChartsRender renders (SVG and PNG) in this directory")

// The charts as a real SVG renderer draws them: each renders to a PNG of
// the picture's size, with every bar in its strategy's colour. With
// -charts DIR the SVGs and PNGs stay there for a reader to look at; where
// no renderer is installed the test says so and skips.
func TestChartsRender(t *testing.T) {
	renderer, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("no SVG renderer: rsvg-convert (librsvg2-bin) is not installed")
	}
	dir := *chartsDir
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	charts := map[string][]Row{}
	for _, p := range hwmodel.ProfileNames() {
		charts[p] = rows(t)
	}
	for _, name := range []string{"all equal", "tiny differences", "just under 1", "huge", "one workload", "long names", "a translator", "no oracle"} {
		charts[strings.ReplaceAll(name, " ", "-")] = adversarialCharts()[name]
	}
	for name, rs := range charts {
		profile := name
		if !slices.Contains(hwmodel.ProfileNames(), name) {
			profile = "p"
		}
		var svg bytes.Buffer
		require.NoError(t, WriteSVG(&svg, profile, rs))
		svgPath, pngPath := filepath.Join(dir, name+".svg"), filepath.Join(dir, name+".png")
		require.NoError(t, os.WriteFile(svgPath, svg.Bytes(), 0o644))
		out, err := exec.Command(renderer, "--format=png", "--output", pngPath, svgPath).CombinedOutput()
		require.NoError(t, err, "%s: %s", name, out)
		f, err := os.Open(pngPath)
		require.NoError(t, err)
		img, err := png.Decode(f)
		f.Close()
		require.NoError(t, err, name)
		c := layoutChart(profile, rs)
		assert.Equal(t, [2]int{int(c.width), int(c.height)}, [2]int{img.Bounds().Dx(), img.Bounds().Dy()}, name)
		for _, m := range c.marks {
			if !strings.HasPrefix(m.what, "the bar of ") {
				continue
			}
			// A pixel of the bar that nothing else is drawn near (the
			// line of 1 and the break cross bars).
			x0, y0, x1, y1 := m.area.Bounds()
			x, y := math.Floor((x0+x1)/2), math.Ceil(y0)+1
			for ; y < y1-1; y++ {
				if !slices.ContainsFunc(c.marks, func(o mark) bool {
					return o.what != m.what && chart.Overlap(chart.Rect(x-1, y-1, x+2, y+2), o.area)
				}) {
					break
				}
			}
			if y >= y1-1 {
				continue // no such pixel
			}
			r, g, b, _ := img.At(int(x), int(y)).RGBA()
			got := fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
			fill := regexp.MustCompile(`fill="(#[0-9a-f]{6})"`).FindStringSubmatch(m.svg)[1]
			assert.Equal(t, fill, got, "%s: %s", name, m.what)
		}
	}
	t.Logf("rendered %d charts into %s", len(charts), dir)
}
