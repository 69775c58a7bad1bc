package dditrace

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBucketsCoverEveryLatency(t *testing.T) {
	for _, ns := range []uint64{0, 1, 2, 3, 4, 1023, 1024, 1025, 1 << 40, math.MaxUint64} {
		k := Bucket(ns)
		require.Less(t, k, Buckets)
		lo, hi := BucketBounds(k)
		assert.GreaterOrEqual(t, ns, lo, "%d in bucket %d", ns, k)
		if hi != 0 {
			assert.Less(t, ns, hi, "%d in bucket %d", ns, k)
		}
	}
}

func TestWriteHistogramDrawsLikeBpftrace(t *testing.T) {
	var h [Buckets]uint64
	h[Bucket(0)] = 1
	h[Bucket(700)] = 4
	h[Bucket(1500)] = 8
	h[Bucket(3<<20)] = 2
	var b strings.Builder
	require.NoError(t, WriteHistogram(&b, &h))
	want := "" +
		"[0]                     1 |@@@@@@                                              |\n" +
		"[1]                     0 |                                                    |\n" +
		"[2, 4)                  0 |                                                    |\n"
	assert.True(t, strings.HasPrefix(b.String(), want), b.String())
	assert.Contains(t, b.String(), "[512, 1K)               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n")
	assert.Contains(t, b.String(), "[1K, 2K)                8 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n")
	assert.True(t, strings.HasSuffix(b.String(), "[2M, 4M)                2 |@@@@@@@@@@@@@                                       |\n"), b.String())
	assert.Equal(t, "[8E, ...)", bucketLabel(64))

	var empty [Buckets]uint64
	b.Reset()
	require.NoError(t, WriteHistogram(&b, &empty))
	assert.Empty(t, b.String())
}
