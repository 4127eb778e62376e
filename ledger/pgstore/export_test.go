package pgstore

import "context"

// Setting returns the value of the run-time parameter name on one of the
// store's pooled connections (SHOW), for tests of the session settings.
func Setting(s *Store, name string) (string, error) {
	var v string
	err := s.pool.QueryRow(context.Background(), `SELECT current_setting($1)`, name).Scan(&v)
	return v, err
}
