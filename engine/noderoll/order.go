package noderoll

import (
	"fmt"

	"rollscope/model"
)

// rank is a role's place in kops' order (model.RollOrder), or why the role
// is not one.
func rank(role string) (int, error) {
	if r, ok := model.RollOrder(role); ok {
		return r, nil
	}
	return 0, fmt.Errorf("unknown group type for group %q: role %q (use Bastion, Master, ControlPlane, APIServer or Node)", role, role)
}
