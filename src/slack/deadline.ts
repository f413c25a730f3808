/** The deadline helper lives with the use cases (src/app); Slack handlers use it from here too. */
export { DeadlineError, withDeadline } from '../app/deadline.js';
