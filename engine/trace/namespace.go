package trace

import "time"

// Home tells the writer the scenario's namespace. Lines about objects in
// other namespaces then name theirs: table rows as namespace/kind/name, JSON
// event lines with a "namespace" field (JSON object lines always carry it).
// A scenario of one namespace writes the same bytes as without Home.
func (w *Writer) Home(namespace string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.home = namespace
}

// elsewhere is ns when it is not the scenario's namespace, else "".
func (w *Writer) elsewhere(ns string) string {
	if w.home == "" || ns == w.home {
		return ""
	}
	return ns
}

// tableObject begins the row of an object, naming its namespace when it is
// not the scenario's.
func (w *Writer) tableObject(t time.Duration, row, kind string, key objectKey) []byte {
	if ns := w.elsewhere(key.namespace); ns != "" && kind != kindNode {
		kind = ns + "/" + kind
	}
	return w.tableStart(t, row, kind, key.name)
}
