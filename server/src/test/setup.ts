import { setDefaultSerializerMode } from '../http/serializers.ts';
import { setDefaultHashCost } from '../modules/auth/password-hashing.ts';

// Apps built by server tests compile response serializers when a route first answers: see
// http/serializers.ts (most of app.ready() otherwise, paid once per describe).
setDefaultSerializerMode('on-first-use');

// Users registered and signed in by the tests are hashed at argon2id's smallest cost (see
// modules/auth/password-hashing.ts): password-hashing.test.ts checks the production parameters.
// TEST_HASH_COST=production runs every test at the production cost (to compare, or to check a flow with it).
setDefaultHashCost(process.env.TEST_HASH_COST === 'production' ? 'production' : 'test');
