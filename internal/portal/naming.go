package portal

import "strings"

// Normalise lower-cases an identifier and turns '_', '.' and spaces into
// '-', so that "CRM_Orders" and "crm.orders" name the same resource. It is
// the first step of the naming convention, which pages also use to preview
// full names.
func Normalise(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '.', ' ':
			return '-'
		}
		return r
	}, id)
}
