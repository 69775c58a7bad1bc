package translator_test

import (
	"bytes"
	"testing"

	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A profile frame carries the whole profile, the data the model enforces:
// facts, costs, and the profile's file with its description and sources.
// A frame whose file says other than its facts is refused.
func TestProfileFrameCarriesTheProfile(t *testing.T) {
	for _, p := range hwmodel.Profiles() {
		frame := translator.AppendProfile(nil, 7, p)
		require.Zero(t, len(frame)%4)
		id, q, err := translator.DecodeProfile(frame[translator.FrameHeaderSize:])
		require.NoError(t, err, p.Name)
		assert.Equal(t, uint32(7), id)
		assert.Equal(t, p, q, p.Name)
		assert.True(t, bytes.Contains(frame, p.MarshalFile()), "%s: the frame holds the profile's file", p.Name)
	}
	p, _ := hwmodel.LookupProfile("xe")
	body := translator.AppendProfile(nil, 1, p)[translator.FrameHeaderSize:]
	// The same length, another cost: the file disagrees with the costs.
	tampered := bytes.Replace(body, []byte(`"flush_per_line": 6`), []byte(`"flush_per_line": 7`), 1)
	require.NotEqual(t, body, tampered)
	_, _, err := translator.DecodeProfile(tampered)
	assert.ErrorContains(t, err, "the profile file says other than the frame's facts and costs")
	broken := bytes.Replace(body, []byte(`"costs": {`), []byte(`"costs": [`), 1)
	_, _, err = translator.DecodeProfile(broken)
	assert.ErrorContains(t, err, "the frame's profile file:")
	_, _, err = translator.DecodeProfile(body[:len(body)-4])
	assert.ErrorContains(t, err, "make it")
}
