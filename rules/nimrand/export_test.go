package nimrand

// SeedByJumping is Seed with the jump run step by step (jumpState), for
// the tests.
func SeedByJumping(seed int64) *Rand {
	if seed == 0 {
		seed = DefaultSeed
	}
	r := new(Rand)
	r.a0, r.a1 = jumpState(uint64(seed>>16), uint64(seed&0xffff))
	r.Next()
	return r
}
