package perform

import (
	"errors"
	"fmt"

	"rollscope/model"
	"rollscope/model/action"
)

// The dialogs' checks, in the words the console shows under the field.

func checkImage(r action.Request) error {
	if r.Container == "" {
		return errors.New("pick a container first")
	}
	return model.CheckImage(r.Image)
}

func checkEnv(r action.Request) error {
	name, _, remove, err := r.EnvChange()
	if err != nil {
		return err
	}
	if remove {
		// kubectl checks only the names it sets: one it removes may be
		// any the API server took.
		return model.CheckDeclaredEnvName(name)
	}
	return model.CheckEnvName(name)
}

// checkRevision refuses a revision the undo picker cannot offer; scripts,
// which may write 0 for the previous revision, skip it.
func checkRevision(revision int64) error {
	if revision < 1 {
		return fmt.Errorf("revision %d does not exist — revisions are 1 or more", revision)
	}
	return nil
}
