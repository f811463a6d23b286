package memapi

import (
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
)

// watch opens a watch the way the real server's watch cache answers one:
//
//   - resourceVersion "" or "0" (without sendInitialEvents=false): an Added
//     event for every current object, then every change;
//   - resourceVersion N: every change after N, replayed from history, or a
//     410 Gone "too old resource version" error event if that history has
//     been trimmed (clients relist);
//   - sendInitialEvents=true: the current objects, then a Bookmark annotated
//     k8s.io/initial-events-end (when bookmarks are allowed);
//   - allowWatchBookmarks: a Bookmark carrying the current resourceVersion
//     once the replay is done.
func (c *Cluster) watch(t *table, namespace string, opts metav1.ListOptions, l labels.Selector, f fields.Selector) (watch.Interface, error) {
	if errs := validateWatchOptions(opts); len(errs) > 0 {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "ListOptions"}, "", errs)
	}
	flt, err := newFilter(t.kind, namespace, l, f)
	if err != nil {
		return nil, err
	}
	var from uint64
	if opts.ResourceVersion != "" {
		from, err = strconv.ParseUint(opts.ResourceVersion, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resource version %q: expected a decimal number", opts.ResourceVersion))
		}
	}
	initial, replay := from == 0, from != 0
	if opts.SendInitialEvents != nil {
		initial, replay = *opts.SendInitialEvents, !*opts.SendInitialEvents && from != 0
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	w := newWatcher(flt)
	if replay && from > c.rv {
		err := apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d, current: %d", from, c.rv), 1)
		err.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}
		w.end(watch.Error, &err.ErrStatus)
		return w, nil
	}
	if replay && !t.history.covers(from) {
		err := apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", from, t.history.trimmed))
		w.end(watch.Error, &err.ErrStatus)
		return w, nil
	}

	if initial {
		for _, obj := range t.sorted(flt.namespace) {
			if flt.matches(obj) {
				w.push(watch.Added, obj)
			}
		}
	}
	if replay {
		for _, ch := range t.history.after(from) {
			w.offer(ch)
		}
	}
	if opts.AllowWatchBookmarks {
		bookmark := t.kind.newObject()
		m := metaOf(bookmark)
		m.SetResourceVersion(strconv.FormatUint(c.rv, 10))
		if initial && opts.SendInitialEvents != nil {
			m.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
		}
		w.push(watch.Bookmark, bookmark)
	}

	t.watchers[w] = struct{}{}
	w.release = func() {
		c.mu.Lock()
		delete(t.watchers, w)
		c.mu.Unlock()
	}
	return w, nil
}

// validateWatchOptions applies the real server's checks of watch options.
func validateWatchOptions(opts metav1.ListOptions) field.ErrorList {
	var errs field.ErrorList
	match := opts.ResourceVersionMatch
	if opts.SendInitialEvents != nil && match != metav1.ResourceVersionMatchNotOlderThan {
		errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), fmt.Sprintf("sendInitialEvents requires setting resourceVersionMatch to %s", metav1.ResourceVersionMatchNotOlderThan)))
	}
	if match != "" {
		if opts.SendInitialEvents == nil {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
		}
		if match != metav1.ResourceVersionMatchNotOlderThan {
			errs = append(errs, field.NotSupported(field.NewPath("resourceVersionMatch"), match, []string{string(metav1.ResourceVersionMatchNotOlderThan)}))
		}
	}
	return errs
}
