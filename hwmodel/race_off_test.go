//go:build !race

package hwmodel

const raceEnabled = false
