/* Cohort pages: replaced by the front end. */
