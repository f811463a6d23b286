package sim

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// store is the runner's cache of one kind: a cache.Indexer, as client-go's
// listers read it, keyed namespace/name with the controllers' indexes.
//
// It answers as client-go's indexer does (cache.NewIndexer with
// cache.MetaNamespaceKeyFunc), but costs less per change, which the runner
// applies for every write of a 10,000-pod rollout: the key of an object
// already held is looked up without building a new string, and each object
// keeps the index values it was filed under, so an update works out only the
// new ones (client-go works out both, old and new, on every update).
type store struct {
	mu       sync.RWMutex // the console's goroutine may read (the logs view)
	items    map[string]*entry
	names    []string                         // the indexes, in the order they were added
	indexers []cache.IndexFunc                // by position in names
	single   []func(any) (string, bool)       // by position: control.SingleValue of the indexer, or nil
	indices  []map[string]map[string]struct{} // by position: value → keys
	keyBuf   []byte                           // under mu: the key of the object being looked up
}

type entry struct {
	key    string
	obj    any
	values [][]string // by index position: the values obj is filed under
	// one holds the single values of the first inlineIndexes indexes, in
	// the same object as the entry (see inlineEntry); nil for a kind
	// without indexes.
	one *[inlineIndexes]string
}

// inlineEntry is the entry of a kind with indexes: its values and their
// single values are held inside it, so a pod (three indexes: namespace,
// controller, node) is one object to allocate and for the collector to
// mark, not five. A kind without indexes (events) has a bare entry.
type inlineEntry struct {
	entry
	slots  [inlineIndexes][]string
	single [inlineIndexes]string
}

// inlineIndexes is how many indexes an entry files its values for without
// allocating: the most any kind has.
const inlineIndexes = 3

func newEntry(key string, indexes int) *entry {
	switch {
	case indexes == 0:
		return &entry{key: key}
	case indexes <= inlineIndexes:
		ie := &inlineEntry{entry: entry{key: key}}
		ie.values = ie.slots[:indexes:indexes]
		ie.one = &ie.single
		return &ie.entry
	}
	return &entry{key: key, values: make([][]string, indexes)}
}

func newStore(indexers cache.Indexers) *store {
	s := &store{items: map[string]*entry{}}
	_ = s.AddIndexers(indexers) // cannot fail: the store has no index yet
	return s
}

var _ cache.Indexer = (*store)(nil)

// lookup finds obj's entry by its key, written into keyBuf: looking a
// []byte up as a string allocates nothing. The caller holds mu.
func (s *store) lookup(obj any) (*entry, error) {
	if k, ok := obj.(cache.ExplicitKey); ok {
		return s.items[string(k)], nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("object has no meta: %v", err)
	}
	s.keyBuf = s.keyBuf[:0]
	if ns := m.GetNamespace(); ns != "" {
		s.keyBuf = append(append(s.keyBuf, ns...), '/')
	}
	s.keyBuf = append(s.keyBuf, m.GetName()...)
	return s.items[string(s.keyBuf)], nil
}

// put stores obj and reports what it replaced.
func (s *store) put(obj any) (old any, existed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(obj)
	if err != nil {
		return nil, false, err
	}
	if e == nil {
		key := string(s.keyBuf)
		if k, ok := obj.(cache.ExplicitKey); ok {
			key = string(k)
		}
		e = newEntry(key, len(s.indexers))
		s.items[e.key] = e
	} else {
		old, existed = e.obj, true
	}
	e.obj = obj
	for i := range s.indexers {
		s.file(e, i)
	}
	return old, existed, nil
}

// file works out the values e.obj is indexed under by name and moves its
// key to them when they changed, as client-go's index does (including its
// panic on an index function's error: an object the controllers cannot index
// is a bug).
func (s *store) file(e *entry, i int) {
	old := e.values[i]
	var values []string
	single := false
	if one := s.single[i]; one != nil {
		if v, ok := one(e.obj); ok {
			if len(old) == 1 && old[0] == v {
				return // most writes: nothing to refile, and no slice made
			}
			s.unfile(e.key, i, old) // before the slot old may be is overwritten
			single = true
			if e.one != nil && i < inlineIndexes {
				e.one[i] = v
				values = e.one[i : i+1 : i+1]
			} else {
				values = []string{v}
			}
		}
	}
	if !single {
		var err error
		values, err = s.indexers[i](e.obj)
		if err != nil {
			panic(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %v", e.key, s.names[i], err))
		}
		if len(old) == 1 && len(values) == 1 && old[0] == values[0] {
			return
		}
		s.unfile(e.key, i, old)
	}
	idx := s.indices[i]
	for _, v := range values {
		set := idx[v]
		if set == nil {
			set = map[string]struct{}{}
			idx[v] = set
		}
		set[e.key] = struct{}{}
	}
	e.values[i] = values
}

func (s *store) unfile(key string, i int, values []string) {
	idx := s.indices[i]
	for _, v := range values {
		set := idx[v]
		delete(set, key)
		if len(set) == 0 {
			delete(idx, v)
		}
	}
}

// remove drops obj's entry and reports whether there was one.
func (s *store) remove(obj any) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(obj)
	if err != nil || e == nil {
		return false, err
	}
	for i, values := range e.values {
		s.unfile(e.key, i, values)
	}
	delete(s.items, e.key)
	return true, nil
}

func (s *store) Add(obj any) error {
	_, _, err := s.put(obj)
	return err
}

func (s *store) Update(obj any) error {
	_, _, err := s.put(obj)
	return err
}

func (s *store) Delete(obj any) error {
	_, err := s.remove(obj)
	return err
}

func (s *store) List() []any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]any, 0, len(s.items))
	for _, e := range s.items {
		out = append(out, e.obj)
	}
	return out
}

func (s *store) ListKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.items))
	for k := range s.items {
		out = append(out, k)
	}
	return out
}

// LastStoreSyncResourceVersion and Bookmark: the runner's caches are fed
// from the commit stream, never relisted, so there is no sync to remember.
func (s *store) LastStoreSyncResourceVersion() string { return "" }

func (s *store) Bookmark(string) {}

func (s *store) Get(obj any) (any, bool, error) {
	s.mu.Lock() // lookup writes keyBuf
	defer s.mu.Unlock()
	e, err := s.lookup(obj)
	if err != nil || e == nil {
		return nil, false, err
	}
	return e.obj, true, nil
}

func (s *store) GetByKey(key string) (any, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e := s.items[key]; e != nil {
		return e.obj, true, nil
	}
	return nil, false, nil
}

func (s *store) Replace(list []any, _ string) error {
	s.mu.Lock()
	s.items = map[string]*entry{}
	for i := range s.indices {
		s.indices[i] = map[string]map[string]struct{}{}
	}
	s.mu.Unlock()
	for _, obj := range list {
		if err := s.Add(obj); err != nil {
			return err
		}
	}
	return nil
}

func (s *store) Resync() error { return nil }

func (s *store) index(name string) (cache.IndexFunc, map[string]map[string]struct{}, error) {
	for i, n := range s.names {
		if n == name {
			return s.indexers[i], s.indices[i], nil
		}
	}
	return nil, nil, fmt.Errorf("Index with name %s does not exist", name)
}

func (s *store) singleOf(name string) func(any) (string, bool) {
	for i, n := range s.names {
		if n == name {
			return s.single[i]
		}
	}
	return nil
}

func (s *store) Index(name string, obj any) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	fn, idx, err := s.index(name)
	if err != nil {
		return nil, err
	}
	// Listers list a namespace through this index: its one value, without
	// a slice, when the function has a one-value form.
	if one := s.singleOf(name); one != nil {
		if v, ok := one(obj); ok {
			return s.objects(idx[v]), nil
		}
	}
	values, err := fn(obj)
	if err != nil {
		return nil, err
	}
	if len(values) == 1 {
		return s.objects(idx[values[0]]), nil
	}
	keys := map[string]struct{}{}
	for _, v := range values {
		for k := range idx[v] {
			keys[k] = struct{}{}
		}
	}
	return s.objects(keys), nil
}

func (s *store) objects(keys map[string]struct{}) []any {
	out := make([]any, 0, len(keys))
	for k := range keys {
		out = append(out, s.items[k].obj)
	}
	return out
}

func (s *store) IndexKeys(name, value string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, idx, err := s.index(name)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(idx[value]))
	for k := range idx[value] {
		out = append(out, k)
	}
	return out, nil
}

func (s *store) ListIndexFuncValues(name string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, idx, _ := s.index(name)
	out := make([]string, 0, len(idx))
	for v := range idx {
		out = append(out, v)
	}
	return out
}

func (s *store) ByIndex(name, value string) ([]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, idx, err := s.index(name)
	if err != nil {
		return nil, err
	}
	return s.objects(idx[value]), nil
}

func (s *store) GetIndexers() cache.Indexers {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(cache.Indexers, len(s.names))
	for i, n := range s.names {
		out[n] = s.indexers[i]
	}
	return out
}

// AddIndexers adds indexes and files the objects already held under them.
// Like client-go's, it refuses a name that is already an index.
func (s *store) AddIndexers(indexers cache.Indexers) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range indexers {
		if slices.Contains(s.names, name) {
			return fmt.Errorf("indexer conflict: %v", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(indexers)) {
		s.names = append(s.names, name)
		s.indexers = append(s.indexers, indexers[name])
		s.single = append(s.single, control.SingleValue(name, indexers[name]))
		s.indices = append(s.indices, map[string]map[string]struct{}{})
		i := len(s.names) - 1
		for _, e := range s.items {
			e.values = append(e.values, nil)
			s.file(e, i)
		}
	}
	return nil
}
