package trace

import (
	"time"

	"rollscope/model/kind"
)

// The lines of every workload kind but Deployments (lines.go): what the
// registry's accessor says of the object (kind.TraceLine), `kubectl get`'s
// counts and what a rolling update turns on, so that a kind the registry
// gains needs nothing here.

// workloadLines follows the objects of one workload kind.
type workloadLines = followed[kind.Workload, kind.TraceLine]

// followWorkloads follows every registry kind's objects but Deployments'.
func followWorkloads() map[kind.Kind]*workloadLines {
	m := map[kind.Kind]*workloadLines{}
	for _, e := range kind.All() {
		if e.Kind == kind.Deployment {
			continue
		}
		name := string(e.Kind)
		f := follow(name, kind.Workload.TraceLine, func(w *Writer, t time.Duration, key objectKey, l kind.TraceLine) {
			w.writeWorkload(t, name, key, &l)
		})
		m[e.Kind] = &f
	}
	return m
}

func (w *Writer) writeWorkload(t time.Duration, k string, key objectKey, l *kind.TraceLine) {
	if w.table {
		b := w.tableObject(t, rowWorkload, k, key)
		for i, width := range countWidths {
			if i < l.Counted {
				b = appendColumn(b, int64(l.Counts[i]), width)
				continue
			}
			mark := len(b)
			b = append(b, '-')
			b = pad(b, mark, width)
		}
		w.tableFinish(appendText(b, l.Note))
		return
	}
	b := w.jsonStart(t, k)
	b = appendStringField(b, "namespace", key.namespace)
	b = appendStringField(b, "name", key.name)
	for _, f := range l.Fields {
		switch {
		case f.Name == "":
			w.jsonFinish(b)
			return
		case f.IsText:
			b = appendStringField(b, f.Name, f.Text)
		default:
			b = appendIntField(b, f.Name, f.Number)
		}
	}
	w.jsonFinish(b)
}
