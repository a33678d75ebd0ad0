// What a table bucket and a table both own, as the bucket page and the table page show it:
// encryption, storage class, replication with each destination's status, policy and tags.
import { facts, h, jsonView, table } from './dom.js';

export 
