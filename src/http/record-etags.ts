import { snapshotTags, versionTags } from './etag.js';
import { ProjectOnly, TaskOnly, TreeSnapshot } from './schemas/data.js';

/*
 * The ETags of GET /tasks/{id}, GET /projects/{id} and GET /trees/{id} (the snapshot), made in one
 * place for the reads, for the answers of writes of those records (which carry the tag a read
 * right after would give, CONTRACT §16.2) and for If-Match, which compares them.
 */
export const taskTag = versionTags(TaskOnly);
export const projectTag = versionTags(ProjectOnly);
export const treeTag = snapshotTags(TreeSnapshot);
