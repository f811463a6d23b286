package embeddedfleet

import (
	"bytes"
	"strings"
	"testing"
)

// One trace of several clusters is in time order, each cluster's own
// lines in theirs, ties in the clusters' order, each line naming its
// cluster.
func TestMergeOrdersLinesByTimeAndNamesTheirCluster(t *testing.T) {
	jsonl := func(lines ...string) *bytes.Buffer { return bytes.NewBufferString(strings.Join(lines, "\n") + "\n") }
	var out bytes.Buffer
	merge(&out, []string{"eu", "us"}, []*bytes.Buffer{
		jsonl(`{"t":0.0,"type":"a"}`, `{"t":10.0,"type":"b"}`, `{"t":10.0,"type":"c"}`),
		jsonl(`{"t":5.0,"type":"d"}`, `{"t":10.0,"type":"e"}`),
	}, false)
	want := `{"t":0.0,"cluster":"eu","type":"a"}
{"t":5.0,"cluster":"us","type":"d"}
{"t":10.0,"cluster":"eu","type":"b"}
{"t":10.0,"cluster":"eu","type":"c"}
{"t":10.0,"cluster":"us","type":"e"}
`
	if out.String() != want {
		t.Errorf("JSONL:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	merge(&out, []string{"eu", "ap-south"}, []*bytes.Buffer{
		jsonl("TIME   ROW", "2.000  x"), jsonl("TIME   ROW", "1.500  y"),
	}, true)
	want = "CLUSTER   TIME   ROW\nap-south  1.500  y\neu        2.000  x\n"
	if out.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", out.String(), want)
	}
}
