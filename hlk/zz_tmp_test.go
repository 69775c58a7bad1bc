package hlk

import (
	"os"
	"testing"

	"github.com/ebref/ebref/hwmodel"
)

func TestZZTmpScenario(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("ZZ_FILE"))
	if err != nil {
		t.Skip()
	}
	cases, err := Parse("x.ebs", string(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	prof, _ := hwmodel.LookupProfile("discrete")
	r := Run(Reference, cases[0], prof, "")
	t.Log(r.Status)
}
