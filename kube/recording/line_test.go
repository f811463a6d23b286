package recording

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

// A batch's line, written by hand, is the bytes json.Marshal writes: a
// reader (or another tool) cannot tell the two apart, whatever the names.
func TestARecordsLineIsWhatJSONWrites(t *testing.T) {
	at := time.Date(2026, 12, 3, 3, 12, 4, 250_000_000, time.FixedZone("cet", 3600))
	obj := json.RawMessage(`{"metadata":{"name":"web-7d4b9"},"status":{"phase":"Running"}}`)
	patch := json.RawMessage(`{"status":{"phase":"Running"}}`)
	for name, r := range map[string]rec.Record{
		"a quiet second":                  {At: at},
		"whole objects and a patch":       {At: at, Objects: []rec.Change{{Ref: rec.Ref{Kind: "Pod", Namespace: "shop", Name: "web-7d4b9"}, Object: obj}, {Ref: rec.Ref{Kind: "Node", Name: "n1"}, Patch: patch}}},
		"deletions":                       {At: at, Deleted: []rec.Ref{{Kind: "Pod", Namespace: "shop", Name: "web-1"}, {Kind: "Node", Name: "n2"}}},
		"names json escapes":              {At: at, Objects: []rec.Change{{Ref: rec.Ref{Kind: "Event", Namespace: "a<b>&\"c\\", Name: "é\n\u2028"}, Object: obj}}, Deleted: []rec.Ref{{Kind: "K", Name: "x&y"}}},
		"the watch's health":              {At: at, Watch: &cluster.WatchStatus{Connected: true, Synced: true}},
		"an action goes as it always did": {At: at, Action: &rec.Action{Namespace: "shop", Name: "web", User: "alice"}},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendRecord(nil, r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: wrote\n%s (%v), json.Marshal writes\n%s", name, got, err, want)
		}
	}
}
