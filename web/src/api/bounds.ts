/**
 * The server's field bounds, for the forms' maxLength and minLength: the very constants the API
 * checks (a leaf module of the server with no imports), so a form never allows more than the API
 * takes, nor less.
 */
export {
  DEADLINE_MAX,
  DESCRIPTION_MAX,
  EMAIL_MAX,
  NAME_PATTERN,
  NOTES_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  POST_BODY_MAX,
  PROFILE_NAME_MAX,
  PROJECT_NAME_MAX,
  QUERY_MAX,
  TEXT_MAX,
  TITLE_MAX,
  TOKEN_NAME_MAX,
  TREE_NAME_MAX,
} from '../../../src/domain/field-bounds';
