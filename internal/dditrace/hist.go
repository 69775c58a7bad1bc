package dditrace

import (
	"fmt"
	"io"
	"math/bits"
	"strings"
)

// Buckets is the number of log2 latency buckets: bucket 0 holds 0 ns,
// bucket k (k >= 1) holds [2^(k-1), 2^k) ns.
const Buckets = 65

// Bucket is the bucket a latency of ns falls in.
func Bucket(ns uint64) int { return bits.Len64(ns) }

// BucketBounds are bucket k's bounds in ns: [lo, hi); hi is 0 for the last.
func BucketBounds(k int) (lo, hi uint64) {
	if k == 0 {
		return 0, 1
	}
	lo = 1 << (k - 1)
	if k < 64 {
		hi = 1 << k
	}
	return lo, hi
}

// bucketLabel writes bounds the way bpftrace's hist does: [0], [1],
// [2, 4), ..., [1K, 2K), with powers of 1024 as K, M, G, T, P, E.
func bucketLabel(k int) string {
	lo, hi := BucketBounds(k)
	if k <= 1 {
		return fmt.Sprintf("[%d]", lo)
	}
	if hi == 0 {
		return fmt.Sprintf("[%s, ...)", power2(lo))
	}
	return fmt.Sprintf("[%s, %s)", power2(lo), power2(hi))
}

func power2(v uint64) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{60, "E"}, {50, "P"}, {40, "T"}, {30, "G"}, {20, "M"}, {10, "K"}} {
		if v >= 1<<u.shift && v%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d%s", v>>u.shift, u.suffix)
		}
	}
	return fmt.Sprint(v)
}

// histWidth is the bar's width at the largest bucket, as bpftrace draws it.
const histWidth = 52

// WriteHistogram draws h from its first non-empty bucket to its last, one
// line a bucket: the bounds, the count and a bar scaled to the largest.
func WriteHistogram(w io.Writer, h *[Buckets]uint64) error {
	lo, hi, top := -1, -1, uint64(0)
	for k, n := range h {
		if n == 0 {
			continue
		}
		if lo < 0 {
			lo = k
		}
		hi = k
		top = max(top, n)
	}
	if lo < 0 {
		return nil
	}
	var b strings.Builder
	for k := lo; k <= hi; k++ {
		bar := int(h[k] * histWidth / top)
		fmt.Fprintf(&b, "%-16s %8d |%-*s|\n", bucketLabel(k), h[k], histWidth, strings.Repeat("@", bar))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
