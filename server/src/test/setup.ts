import { setDefaultSerializerMode } from '../http/serializers.ts';

// Apps built by server tests compile response serializers when a route first answers: see
// http/serializers.ts (most of app.ready() otherwise, paid once per describe).
setDefaultSerializerMode('on-first-use');
